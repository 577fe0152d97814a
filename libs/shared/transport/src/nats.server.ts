import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { connect, JSONCodec, Msg, NatsConnection, Subscription } from 'nats';
import { asEnvelope, runHandler } from './reply';
import { DomainError } from '@lookup/contracts';

export interface NatsServerOptions {
  url: string;
  /** Subject prefix, so several deployments (or test runs) can share one NATS. */
  prefix: string;
  /** Queue group: every replica of one service shares it, so each request is answered once. */
  queue: string;
  name: string;
}

const codec = JSONCodec();

/**
 * Serves the app's @MessagePattern handlers as NATS request-reply subjects. Uses our reply
 * envelope instead of Nest's packet format so that errors keep their type on the way back.
 */
export class NatsTransportServer extends Server implements CustomTransportStrategy {
  private nc: NatsConnection | null = null;
  private readonly subs: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: NatsServerOptions) {
    super();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      this.nc = await connect({
        servers: this.options.url,
        name: this.options.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
    } catch (err) {
      callback(new Error(`Cannot reach NATS at ${this.options.url}: ${(err as Error).message}`));
      return;
    }
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

  private async answer(handler: Parameters<typeof runHandler>[0], msg: Msg): Promise<void> {
    let data: unknown;
    try {
      data = msg.data.length ? codec.decode(msg.data) : {};
    } catch {
      msg.respond(codec.encode({ ok: false, error: asEnvelope(new DomainError('invalid_request', 'Malformed message.')) }));
      return;
    }
    const reply = await runHandler(handler, data);
    if (msg.reply) msg.respond(codec.encode(reply));
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
