import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { DomainError, parseRequest, TRANSPORT_PARAMS } from '@lookup/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * All of a request's parameters: query string, then body (body wins), then path params;
 * minus the ones that belong to the transport (`api_key`, the SDK's `__req`).
 */
export function requestParams(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new DomainError('invalid_request', 'The request body must be a set of named parameters.');
  }
  const merged: Record<string, unknown> = {
    ...((req.query as Record<string, unknown>) ?? {}),
    ...((body as Record<string, unknown>) ?? {}),
    ...((req.params as Record<string, unknown>) ?? {}),
  };
  for (const p of TRANSPORT_PARAMS) delete merged[p];
  return merged;
}

/** `@Params(Dto)`: the request's parameters, validated as that DTO (first end of two). */
export const Params = createParamDecorator((cls: new () => object, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  return parseRequest(cls, requestParams(req));
});
