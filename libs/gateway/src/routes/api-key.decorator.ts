import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { KeyedRequest } from '../http/api-key.guard';

/** The key the guard authenticated. */
export const CurrentKey = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<KeyedRequest>().apiKey);
