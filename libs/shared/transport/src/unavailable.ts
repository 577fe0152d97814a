import { DomainError, ErrorTypes } from '@lookup/contracts';

/** What a client should wait before retrying a failure caused by a part that is down. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** Socket-level failures: the other end is down, restarting or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
const NETWORK_TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/**
 * PostgreSQL SQLSTATEs of a server that is going away, starting up or full: class 08
 * (connection exception), admin/crash shutdown, "the database system is starting up", too many
 * connections.
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres messages of a lost or never made connection (they carry no code). */
const PG_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;
/** OpenSearch answers that mean "no copy of the data can answer now", not a bad query. */
const ENGINE_UNAVAILABLE_TYPES = new Set([
  'no_shard_available_action_exception',
  'cluster_block_exception',
  'node_not_connected_exception',
  'node_disconnected_exception',
  'unavailable_shards_exception',
  'primary_missing_action_exception',
]);

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  statusCode?: unknown;
  meta?: { statusCode?: unknown; body?: { error?: { type?: unknown; root_cause?: Array<{ type?: unknown }> } } };
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Tells a failure caused by a part that is down (database, search engine, a socket to either)
 * from a bug, so it is answered `503` (or `504` for a deadline) with Retry-After instead of a
 * `500`. Recognises errors by shape, not class, so no driver has to be imported here: Node socket
 * errors, node-postgres/TypeORM errors, the OpenSearch client's ConnectionError, TimeoutError,
 * NoLivingConnectionsError and ResponseError. `null` when it is none of these.
 */
export function unavailableError(err: unknown, what = 'A service this request needs'): DomainError | null {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const found = classify(e as ErrorShape, what);
    if (found) return found;
    const o = e as ErrorShape;
    // TypeORM wraps the driver's error; Node wraps causes; AggregateError (happy eyeballs) lists them.
    e = o.driverError ?? o.cause ?? (Array.isArray(o.errors) ? o.errors[0] : undefined);
  }
  return null;
}

function classify(e: ErrorShape, what: string): DomainError | null {
  const name = typeof e.name === 'string' ? e.name : '';
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (name === 'TimeoutError' || NETWORK_TIMEOUT_CODES.has(code)) return unavailableTimeout(what);
  if (name === 'ConnectionError' || name === 'NoLivingConnectionsError') return unavailable(what);
  if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || code.startsWith('08')) return unavailable(what);
  if (name === 'ResponseError') {
    const status = Number(e.meta?.statusCode ?? e.statusCode);
    const body = e.meta?.body?.error;
    const types = [body?.type, ...(body?.root_cause ?? []).map((c) => c?.type)].filter((t): t is string => typeof t === 'string');
    if (status === 504) return unavailableTimeout(what);
    if (status === 502 || status === 503 || status === 429 || types.some((t) => ENGINE_UNAVAILABLE_TYPES.has(t))) return unavailable(what);
    return null;
  }
  if (PG_MESSAGES.test(message)) return unavailable(what);
  return null;
}

export function unavailable(what: string): DomainError {
  return new DomainError(ErrorTypes.serviceUnavailable, `${what} is not available right now; retry shortly.`, null, 503, UNAVAILABLE_RETRY_AFTER_S);
}

function unavailableTimeout(what: string): DomainError {
  return new DomainError(ErrorTypes.timeout, `${what} did not answer in time; retry shortly.`, null, 504, UNAVAILABLE_RETRY_AFTER_S);
}
