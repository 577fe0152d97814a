import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LookupMetrics, metrics } from './metrics.registry';
import { METRICS_PATH, UNMATCHED_ROUTE } from './metrics.constants';

const QUOTA_ERROR = 'over_query_limit';
const errorTypes = new WeakMap<FastifyRequest, string>();

/** The `type` of a compat error body (`{"error":{"type":...}}`), without trusting its shape. */
export function errorTypeOf(payload: unknown): string {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  if (!text.startsWith('{')) return 'unknown';
  try {
    const type = (JSON.parse(text) as { error?: { type?: unknown } }).error?.type;
    return typeof type === 'string' ? type : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The route template (`/v1/places/:place_id`), never the raw URL, so label values stay few. */
export function routeLabel(req: FastifyRequest): string {
  return req.routeOptions?.url ?? UNMATCHED_ROUTE;
}

let inFlight = 0;
/** The connection the latest request came on, and since when (performance.now()) every request came on it. */
let lastSocket: object | null = null;
let oneClientSince = 0;

/**
 * HTTP requests this process has begun and not yet answered or abandoned (0 without an HTTP
 * server): a request leaves the count when its response closes, written in full or not.
 */
export function httpRequestsInFlight(): number {
  return inFlight;
}

/**
 * Whether one client has had this process to itself for at least `ms`: every request in that
 * time came on the connection of the latest one, and no other is open. A client that waits for
 * each answer before its next request on a kept-alive connection (a user typing, a script,
 * concurrency 1) is one; under load, requests come on many connections and the latest one
 * changes with nearly every request. What tells the standalone search whether a search it
 * would run on the main thread could hold up anyone else (search-threads.ts).
 */
export function httpOneClient(ms: number): boolean {
  return inFlight <= 1 && lastSocket !== null && performance.now() - oneClientSince >= ms;
}

function requestClosed(): void {
  inFlight = Math.max(0, inFlight - 1);
}

/**
 * Request rate, latency and errors per route, plus quota rejections, from Fastify hooks: they
 * see every answer, including those Nest's guards and filters produce.
 */
export function registerHttpMetrics(fastify: FastifyInstance, m: LookupMetrics = metrics()): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const socket = req.raw.socket as object | undefined;
    if (socket !== lastSocket) {
      lastSocket = socket ?? null;
      oneClientSince = performance.now();
    }
    inFlight++;
    // The response's `close` comes once per request, answered or not. Fastify's onResponse
    // needs the answer to finish: a request whose client left before its answer (an
    // autocomplete widget drops the request of every key but the last; a load generator that
    // stops) stayed counted for good, and with it the one-client check was off until restart.
    reply.raw.once('close', requestClosed);
    done();
  });
  fastify.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    // Only error bodies are parsed, and they are small.
    if (reply.statusCode >= 400) errorTypes.set(req, errorTypeOf(payload));
    return payload;
  });
  fastify.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = routeLabel(req);
    if (route === METRICS_PATH) return;
    const status = String(reply.statusCode);
    m.httpRequests.inc({ method: req.method, route, status });
    m.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 400) {
      const type = errorTypes.get(req) ?? 'unknown';
      m.httpErrors.inc({ method: req.method, route, status, type });
      if (type === QUOTA_ERROR) m.quotaRejections.inc({ route });
    }
  });
}

/** `GET /metrics` in the Prometheus text format, outside Nest so no API key guard applies. */
export function registerMetricsRoute(fastify: FastifyInstance, m: LookupMetrics = metrics()): void {
  fastify.get(METRICS_PATH, async (_req, reply) => {
    const body = await m.render();
    return reply.header('content-type', m.contentType).header('cache-control', 'no-store').send(body);
  });
}
