import { gunzipSync } from 'node:zlib';
import { connect, ErrorCode, JSONCodec, NatsConnection, NatsError } from 'nats';
import { DomainError } from '@lookup/contracts';
import { measureTransport } from '@lookup/shared/metrics';
import { DEFAULT_TRANSPORT_TIMEOUT_MS, ReplyEnvelope, RequestOptions, TransportClient } from './transport.types';
import { noResponder, transportTimeout } from './transport.errors';
import { unwrapReply } from './reply';
import { REPLY_ENCODING_HEADER } from './nats.server';

const codec = JSONCodec();

export interface NatsClientOptions {
  url: string;
  prefix: string;
  name: string;
  timeoutMs?: number;
}

/** Request-reply over NATS; tells a timeout (504) from "no one is listening" (503). */
export class NatsTransportClient implements TransportClient {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly options: NatsClientOptions,
  ) {}

  static async connect(options: NatsClientOptions): Promise<NatsTransportClient> {
    try {
      const nc = await connect({ servers: options.url, name: options.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
      return new NatsTransportClient(nc, options);
    } catch (err) {
      throw new Error(`Cannot reach NATS at ${options.url}: ${(err as Error).message}`);
    }
  }

  get connection(): NatsConnection {
    return this.nc;
  }

  request<T>(subject: string, payload: unknown, options?: RequestOptions): Promise<T> {
    return measureTransport(subject, () => this.send<T>(subject, payload, options));
  }

  private async send<T>(subject: string, payload: unknown, options?: RequestOptions): Promise<T> {
    const timeout = options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TRANSPORT_TIMEOUT_MS;
    let reply: ReplyEnvelope;
    try {
      const msg = await this.nc.request(`${this.options.prefix}.${subject}`, codec.encode(payload ?? {}), { timeout });
      const gzipped = msg.headers?.get(REPLY_ENCODING_HEADER) === 'gzip';
      reply = codec.decode(gzipped ? gunzipSync(msg.data) : msg.data) as ReplyEnvelope;
    } catch (err) {
      if (err instanceof NatsError || (err as { code?: string }).code) {
        const code = (err as NatsError).code;
        if (code === ErrorCode.NoResponders) throw noResponder(subject);
        if (code === ErrorCode.Timeout) throw transportTimeout(subject, timeout);
        if (code === ErrorCode.ConnectionClosed || code === ErrorCode.Disconnect) throw noResponder(subject);
      }
      if (err instanceof DomainError) throw err;
      throw DomainError.internal(`Transport failure on ${subject}.`);
    }
    return unwrapReply<T>(reply);
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
