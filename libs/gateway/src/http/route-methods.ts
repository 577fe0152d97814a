import type { FastifyInstance } from 'fastify';

interface RouteEntry {
  method: string;
  pattern: RegExp;
}

const ROUTES = new WeakMap<object, RouteEntry[]>();

/** `/v1/places/:place_id` -> a RegExp of the paths it serves (a trailing slash aside, as the router ignores it). */
function pathPattern(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * Notes every route's method and path as Fastify registers it (call before the app's routes are
 * registered), so a request the router did not find can be told apart: an unknown path, or a
 * known one with another method (`GET /v1/places/query`, an endpoint of POST only).
 */
export function registerRouteIndex(fastify: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  ROUTES.set(fastify, routes);
  fastify.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, pattern: pathPattern(r.url ?? r.path) });
  });
}

/** The methods `path` (no query string) is served with, in the order registered; [] when none or not indexed. */
export function methodsOf(fastify: object | undefined, path: string): string[] {
  const routes = fastify ? ROUTES.get(fastify) : undefined;
  if (!routes) return [];
  return [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
}
