import { ErrorEnvelope } from '@lookup/contracts';

/** What a handler sends back over any transport. */
export type ReplyEnvelope<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorEnvelope };

export interface RequestOptions {
  /** Overrides the configured default; every call has one. */
  timeoutMs?: number;
  /**
   * The caller sends the answer on as JSON, unchanged (the gateway's routes): a transport that
   * receives it as JSON text may hand back that text as a RawJson instead of decoding it.
   */
  passThrough?: boolean;
}

/**
 * An answer's JSON text (an object or a list), as the service encoded it: the gateway writes it
 * as the HTTP body without decoding and encoding it again (see the gateway's reply serializer).
 */
export class RawJson {
  constructor(readonly bytes: Uint8Array) {}

  /** The value itself (for a caller that needs it after all). */
  value(): unknown {
    return JSON.parse(Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8'));
  }
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
