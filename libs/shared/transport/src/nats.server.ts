import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Logger } from '@nestjs/common';
import { connect, Events, headers, JSONCodec, Msg, NatsConnection, Subscription } from 'nats';
import { gzipSync } from 'node:zlib';
import { asEnvelope, runHandler } from './reply';
import { RawJson, ReplyEnvelope } from './transport.types';
import { DomainError } from '@lookup/contracts';
import { NATS_CONNECTION_OPTIONS, natsServers } from './nats.options';

export interface NatsServerOptions {
  url: string;
  /** Subject prefix, so several deployments (or test runs) can share one NATS. */
  prefix: string;
  /** Queue group: every replica of one service shares it, so each request is answered once. */
  queue: string;
  name: string;
}

const codec = JSONCodec();

/** How runHandler's answer starts and ends once JSON-encoded (`{ ok: true, data }`, in that order). */
export const ANSWER_OPEN = Buffer.from('{"ok":true,"data":');
export const ANSWER_CLOSE = Buffer.from('}');

/** A reply as sent under `max` (max_payload); `kept`: may be reused for the same frozen answer (not an over-size error). */
interface EncodedReply {
  bytes: Uint8Array;
  gzipped: boolean;
  kept: boolean;
  max: number;
}

/** The header a compressed reply carries; the client inflates it (see nats.client.ts). */
export const REPLY_ENCODING_HEADER = 'Content-Encoding';
/** NATS's own default max_payload, for a connection that has not reported its own yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/**
 * Serves the app's @MessagePattern handlers as NATS request-reply subjects. Uses our reply
 * envelope instead of Nest's packet format so that errors keep their type on the way back.
 */
export class NatsTransportServer extends Server implements CustomTransportStrategy {
  private nc: NatsConnection | null = null;
  private readonly frozenReplies = new WeakMap<object, EncodedReply>();
  private readonly subs: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log = new Logger('NatsTransportServer');

  constructor(private readonly options: NatsServerOptions) {
    super();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      this.nc = await connect({
        servers: natsServers(this.options.url),
        name: this.options.name,
        ...NATS_CONNECTION_OPTIONS,
      });
    } catch (err) {
      callback(new Error(`Cannot reach NATS at ${this.options.url}: ${(err as Error).message}`));
      return;
    }
    void this.watch(this.nc);
    // nats.js sends every subscription again on reconnect (to whichever server of the cluster
    // it reaches), so the handlers need no re-registration after a NATS restart.
    for (const [pattern, handler] of this.messageHandlers) {
      const subject = `${this.options.prefix}.${pattern}`;
      this.subs.push(
        this.nc.subscribe(subject, {
          queue: this.options.queue,
          callback: (err, msg) => {
            if (err) return;
            const p: Promise<void> = this.answer(handler, msg).finally(() => this.inFlight.delete(p));
            this.inFlight.add(p);
          },
        }),
      );
    }
    callback();
  }

  /** Logs connection changes: a restart of NATS is visible in the service's log. */
  private async watch(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) this.log.warn(`NATS connection lost (${String(s.data)}); reconnecting`);
      else if (s.type === Events.Reconnect) this.log.log(`NATS reconnected (${String(s.data)}); subscriptions restored`);
    }
  }

  private async answer(handler: Parameters<typeof runHandler>[0], msg: Msg): Promise<void> {
    let data: unknown;
    try {
      data = msg.data.length ? codec.decode(msg.data) : {};
    } catch {
      msg.respond(codec.encode({ ok: false, error: asEnvelope(new DomainError('invalid_request', 'Malformed message.')) }));
      return;
    }
    const reply = await runHandler(handler, data);
    if (msg.reply) this.respond(msg, reply);
  }

  /**
   * A reply over the server's max_payload (1 MiB by default: a whole country's municipality
   * list is more) goes gzipped with a header; one that is too large even then is answered as an
   * api_error. A failed publish never throws out of here: that would end the process.
   * The bytes of a frozen answer (a catalogue list kept under its data stamp, its items frozen
   * too) are kept with it: a frozen answer is taken as one that does not change, and the CZ
   * municipalities cost 30-40 ms to encode and gzip.
   */
  private respond(msg: Msg, reply: ReplyEnvelope): void {
    try {
      const data = reply.ok ? reply.data : null;
      const frozen = data !== null && typeof data === 'object' && Object.isFrozen(data) ? data : null;
      const max = this.nc?.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
      let encoded = frozen ? this.frozenReplies.get(frozen) : undefined;
      // Encoded again where the server's max_payload changed (a reconnect to another server).
      if (!encoded || encoded.max !== max) {
        encoded = this.encode(msg.subject, reply, max);
        if (frozen && encoded.kept) this.frozenReplies.set(frozen, encoded);
      }
      if (encoded.gzipped) {
        const h = headers();
        h.set(REPLY_ENCODING_HEADER, 'gzip');
        msg.respond(encoded.bytes, { headers: h });
      } else msg.respond(encoded.bytes);
    } catch (err) {
      this.log.error(`Cannot reply on ${msg.subject}: ${(err as Error).message}`);
    }
  }

  private encode(subject: string, reply: ReplyEnvelope, max: number): EncodedReply {
    // A handler's JSON text (RawJson) goes in as it is.
    const body = reply.ok && reply.data instanceof RawJson ? Buffer.concat([ANSWER_OPEN, reply.data.bytes, ANSWER_CLOSE]) : codec.encode(reply);
    // Headers and the subject take some of max_payload too.
    if (body.length <= max - 1024) return { bytes: body, gzipped: false, kept: true, max };
    const packed = gzipSync(body);
    if (packed.length <= max - 1024) return { bytes: packed, gzipped: true, kept: true, max };
    this.log.error(`Reply on ${subject} is ${body.length} bytes (${packed.length} gzipped), over max_payload ${max}`);
    return { bytes: codec.encode({ ok: false, error: asEnvelope(DomainError.internal('The answer is too large to send.')) }), gzipped: false, kept: false, max };
  }

  /**
   * Graceful: unsubscribe first (other replicas of the queue group take new requests), let the
   * requests already being handled answer, then drain the connection.
   */
  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = null;
    if (!nc || nc.isClosed()) return;
    await Promise.all(this.subs.splice(0).map((s) => s.drain()));
    await Promise.allSettled([...this.inFlight]);
    await nc.drain();
  }

  on(): never {
    throw new Error('NatsTransportServer has no events');
  }

  unwrap<T>(): T {
    return this.nc as T;
  }
}
