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
  // Copied name by name: object spreads and `delete` (which turns an object into a slow
  // dictionary) cost more here than the rest of the copy.
  const merged: Record<string, unknown> = {};
  copyParams(merged, req.query);
  copyParams(merged, body);
  copyParams(merged, req.params);
  return merged;
}

const TRANSPORT = new Set<string>(TRANSPORT_PARAMS);

function copyParams(into: Record<string, unknown>, from: unknown): void {
  if (from === undefined || from === null) return;
  const source = from as Record<string, unknown>;
  for (const name of Object.keys(source)) {
    if (TRANSPORT.has(name)) continue;
    // A JSON `__proto__` stays a parameter (refused by name later), never the object's prototype.
    if (name === '__proto__') Object.defineProperty(into, name, { value: source[name], enumerable: true, writable: true, configurable: true });
    else into[name] = source[name];
  }
}

/** `@Params(Dto)`: the request's parameters, validated as that DTO (first end of two). */
export const Params = createParamDecorator((cls: new () => object, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  return parseRequest(cls, requestParams(req));
});
