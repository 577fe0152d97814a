import { JSONCodec, JsMsg, NatsConnection } from 'nats';
import { datasetSubjects } from './datasets.constants';
import { DatasetUpdatedEvent, parseDatasetEvent } from './dataset-event';

const codec = JSONCodec();

export interface DatasetJob {
  event: DatasetUpdatedEvent;
  attempt: number;
  /** Call while making progress: tells JetStream the import is alive (resets the ack wait). */
  heartbeat(): void;
}

export type DatasetHandler = (job: DatasetJob) => Promise<void>;

export interface ConsumerOptions {
  prefix: string;
  maxDeliver: number;
  /** Back-off before a failed attempt is redelivered. */
  retryDelayMs: number;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

export interface DeadLetter {
  event: unknown;
  reason: string;
  attempts: number;
  failedAt: string;
}

/**
 * The indexer's loop over the durable pull consumer. An event is acked only after the handler
 * finished (the new index is live); a crash before that leaves it unacked, so JetStream
 * redelivers it to the next indexer. After maxDeliver failures it goes to the dead-letter
 * subject with the reason, and is terminated.
 */
export class DatasetConsumer {
  private stopped = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly handler: DatasetHandler,
    private readonly o: ConsumerOptions,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<void> {
    const s = datasetSubjects(this.o.prefix);
    const consumer = await this.nc.jetstream().consumers.get(s.stream, s.durable);
    while (!this.stopped && !this.nc.isClosed()) {
      const msg = await consumer.next({ expires: 1000 }).catch(() => null);
      if (msg) await this.handle(msg);
    }
  }

  /** Processes one message; exposed for tests that drive the loop step by step. */
  async handle(msg: JsMsg): Promise<'acked' | 'retry' | 'dead'> {
    const attempt = msg.info.redeliveryCount;
    let event: DatasetUpdatedEvent;
    try {
      event = parseDatasetEvent(codec.decode(msg.data));
    } catch (err) {
      return this.deadLetter(msg, `invalid event: ${(err as Error).message}`, attempt);
    }
    if (attempt > this.o.maxDeliver) return this.deadLetter(msg, 'attempts exhausted', attempt - 1);
    const t0 = Date.now();
    this.o.log('info', 'dataset import started', { country: event.country, kind: event.kind, location: event.location, attempt });
    try {
      await this.handler({ event, attempt, heartbeat: () => msg.working() });
    } catch (err) {
      const reason = (err as Error).message;
      // A bad checksum or an unknown format will not get better by retrying: dead-letter at once.
      if (attempt >= this.o.maxDeliver || (err as { permanent?: boolean }).permanent === true) return this.deadLetter(msg, reason, attempt);
      this.o.log('warn', 'dataset import failed, will retry', { country: event.country, kind: event.kind, attempt, reason });
      msg.nak(this.o.retryDelayMs);
      return 'retry';
    }
    try {
      await msg.ackAck();
    } catch (err) {
      // Connection lost before the ack was confirmed: JetStream redelivers, the import is idempotent.
      this.o.log('warn', 'dataset import done but the ack was not confirmed; it will be redelivered', { reason: (err as Error).message });
      return 'retry';
    }
    this.o.log('info', 'dataset import done', { country: event.country, kind: event.kind, seconds: (Date.now() - t0) / 1000 });
    return 'acked';
  }

  private async deadLetter(msg: JsMsg, reason: string, attempts: number): Promise<'dead'> {
    let event: unknown;
    try {
      event = codec.decode(msg.data);
    } catch {
      event = new TextDecoder().decode(msg.data);
    }
    const dl: DeadLetter = { event, reason, attempts, failedAt: new Date().toISOString() };
    await this.nc.jetstream().publish(datasetSubjects(this.o.prefix).dead, codec.encode(dl));
    this.o.log('error', `dataset event dead-lettered after ${attempts} attempt(s): ${reason}`, { event });
    // No reason argument: nats-server 2.9 ignores "+TERM <reason>" and keeps the message pending.
    msg.term();
    return 'dead';
  }
}
