import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorTypes } from '@lookup/contracts';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import type { FastifyRequest } from 'fastify';
import { ApiKeyService, AuthenticatedKey } from '../keys/api-key.service';
import { PUBLIC_ROUTE } from './public.decorator';
import { parseProxyTrust, ProxyTrust, requestCallerIp } from './client-ip';

/** Header names are case-insensitive; Node lower-cases them. */
export const KEY_HEADERS = ['x-service-api-key', 'x-swiftyper-api-key'] as const;

/** What the guard learnt: the key, and the caller's address (restrictions, `around_latlng_via_ip`). */
export type KeyedRequest = FastifyRequest & { apiKey?: AuthenticatedKey; callerIp?: string };

/** The key from the body, the query string (also on GET, where the Node SDK puts it in a JSON body) or a header. */
export function extractKey(req: FastifyRequest): string | undefined {
  const fromBody = (req.body as Record<string, unknown> | undefined)?.['api_key'];
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.['api_key'];
  for (const v of [fromBody, fromQuery, ...KEY_HEADERS.map((h) => req.headers[h])]) {
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (Array.isArray(v) && typeof v[0] === 'string' && v[0].trim()) return v[0].trim();
    // A number in a JSON body was still sent as the key: refused as not valid, not as missing.
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly proxies: ProxyTrust;

  constructor(
    private readonly keys: ApiKeyService,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.proxies = parseProxyTrust(config.TRUST_PROXY, config.TRUSTED_PROXY_HEADER);
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [ctx.getHandler(), ctx.getClass()])) return true;
    const req = ctx.switchToHttp().getRequest<KeyedRequest>();
    const raw = extractKey(req);
    if (!raw) throw new DomainError(ErrorTypes.missing, 'An API key is required (api_key or the X-Service-API-Key header).', 'api_key');
    if (raw.length > 200) throw new DomainError(ErrorTypes.invalidApiKey, 'The API key is not valid.', 'api_key');
    const key = await this.keys.authenticate(raw);
    const origin = req.headers['origin'];
    const ip = requestCallerIp(this.proxies, req);
    this.keys.assertAllowed(key, typeof origin === 'string' ? origin : undefined, ip);
    req.apiKey = key;
    req.callerIp = ip;
    return true;
  }
}
