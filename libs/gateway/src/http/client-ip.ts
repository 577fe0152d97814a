import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ipAllowed } from '../keys/restrictions';

/**
 * Which proxies may name the caller, from TRUST_PROXY (`false`, `true`, a hop count or
 * addresses/CIDRs) and TRUSTED_PROXY_HEADER. `x-forwarded-for` is walked by Fastify itself
 * (proxy-addr, the same TRUST_PROXY), so `req.ip` is already the answer; any other header
 * (`x-real-ip`, `cf-connecting-ip`) holds one address and counts only when the socket peer is
 * a trusted proxy.
 */
export interface ProxyTrust {
  header: string;
  trust: boolean | number | string[];
}

export function parseProxyTrust(trustProxy: string, header: string): ProxyTrust {
  const v = trustProxy.trim();
  const h = header.trim().toLowerCase();
  if (v === 'true') return { header: h, trust: true };
  if (v === 'false' || v === '') return { header: h, trust: false };
  if (/^\d+$/.test(v)) return { header: h, trust: Number(v) };
  return { header: h, trust: v.split(',').map((s) => s.trim()).filter(Boolean) };
}

function peerTrusted(trust: ProxyTrust['trust'], peer: string): boolean {
  if (typeof trust === 'boolean') return trust;
  if (typeof trust === 'number') return trust >= 1;
  return ipAllowed(trust, peer);
}

/** `::ffff:a.b.c.d` is the IPv4 caller of a dual-stack socket. */
function plain(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/**
 * Pure: the caller's address. `socketIp` is the TCP peer, `fastifyIp` Fastify's `req.ip` (the
 * socket address unless TRUST_PROXY lets it read `x-forwarded-for`). A header value that is not
 * an address is ignored, never an error.
 */
export function callerIp(p: ProxyTrust, socketIp: string, fastifyIp: string, headerValue: string | string[] | undefined): string {
  if (p.trust === false) return plain(socketIp);
  if (p.header === 'x-forwarded-for') return plain(fastifyIp);
  if (!peerTrusted(p.trust, plain(socketIp))) return plain(socketIp);
  const raw = Array.isArray(headerValue) ? headerValue[headerValue.length - 1] : headerValue;
  const named = raw?.split(',').pop()?.trim();
  return named && isIP(named) ? plain(named) : plain(socketIp);
}

export function requestCallerIp(p: ProxyTrust, req: FastifyRequest): string {
  return callerIp(p, req.socket?.remoteAddress ?? req.ip, req.ip, req.headers[p.header]);
}
