import { ErrorEnvelope } from '@lookup/contracts';

/** What a handler sends back over any transport. */
export type ReplyEnvelope<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorEnvelope };

export interface RequestOptions {
  /** Overrides the configured default; every call has one. */
  timeoutMs?: number;
}

/**
 * The gateway's view of the services: one request, one reply, typed errors. Implemented by
 * the NATS client (distributed) and the in-process bus (standalone).
 */
export interface TransportClient {
  request<T>(subject: string, payload: unknown, options?: RequestOptions): Promise<T>;
  close(): Promise<void>;
  /** A transport with a connection (NATS) reports it, so readiness can tell a long outage. */
  connectionState?(): ConnectionState;
}

export interface ConnectionState {
  connected: boolean;
  /** 0 while connected. */
  downForMs: number;
}

export const TRANSPORT_CLIENT = Symbol('TRANSPORT_CLIENT');
export const DEFAULT_TRANSPORT_TIMEOUT_MS = 5000;
