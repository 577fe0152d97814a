import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { KeyedRequest } from '../http/api-key.guard';

/** The key the guard authenticated. */
export const CurrentKey = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<KeyedRequest>().apiKey);

/** The caller's address as the guard decided it (socket, or a trusted proxy's header). */
export const CallerIp = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<KeyedRequest>().callerIp);
