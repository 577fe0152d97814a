import { AckPolicy, DeliverPolicy, JetStreamManager, JSONCodec, NatsConnection, RetentionPolicy, StorageType } from 'nats';
import { datasetSubjects } from './datasets.constants';
import { DatasetUpdatedEvent, eventMsgId } from './dataset-event';
import type { DeadLetter } from './dataset-consumer';

const codec = JSONCodec();

export interface StreamOptions {
  prefix: string;
  /** How long one import may go without a progress heartbeat before JetStream redelivers it. */
  ackWaitMs: number;
  /** Attempts before the event goes to the dead-letter subject. */
  maxDeliver: number;
}

/** Creates (or updates) the stream and the durable pull consumer; idempotent. */
export async function ensureDatasetStream(nc: NatsConnection, o: StreamOptions): Promise<void> {
  const s = datasetSubjects(o.prefix);
  const jsm = await nc.jetstreamManager({ timeout: 5000 });
  const config = {
    name: s.stream,
    subjects: [s.updated, s.dead],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: 24 * 3600 * 1e9,
    max_age: 30 * 24 * 3600 * 1e9,
  };
  try {
    await jsm.streams.info(s.stream);
    await jsm.streams.update(s.stream, config);
  } catch {
    await jsm.streams.add(config);
  }
  const consumer = {
    durable_name: s.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: s.updated,
    ack_wait: o.ackWaitMs * 1e6,
    // One more than our attempts: the last delivery is the one we dead-letter and terminate.
    max_deliver: o.maxDeliver + 1,
    max_ack_pending: 1,
  };
  try {
    await jsm.consumers.info(s.stream, s.durable);
    await jsm.consumers.update(s.stream, s.durable, consumer);
  } catch {
    await jsm.consumers.add(s.stream, consumer);
  }
}

/** Publishes an event (the import CLI and the scheduler use this in the distributed profile). */
export async function publishDatasetEvent(nc: NatsConnection, prefix: string, e: DatasetUpdatedEvent): Promise<{ seq: number; duplicate: boolean }> {
  const ack = await nc.jetstream({ timeout: 5000 }).publish(datasetSubjects(prefix).updated, codec.encode(e), { msgID: eventMsgId(e) });
  return { seq: ack.seq, duplicate: ack.duplicate };
}

/**
 * The dataset stream after sequence `after` (from its first message at least), oldest first:
 * every sequence, with its dead letter (null for an event), its event (the message's JSON, null
 * for a dead letter) and when the stream received it. A sequence with no message (deleted from the stream) is passed over; any
 * other read failure is thrown.
 */
export async function* streamDeadLetters(
  jsm: JetStreamManager,
  prefix: string,
  after = 0,
): AsyncGenerator<{ seq: number; dl: DeadLetter | null; event: Record<string, unknown> | null; time: Date }> {
  const s = datasetSubjects(prefix);
  const { first_seq, last_seq } = (await jsm.streams.info(s.stream)).state;
  for (let seq = Math.max(after + 1, first_seq); seq <= last_seq; seq++) {
    const m = await jsm.streams.getMessage(s.stream, { seq }).catch((err: Error) => {
      if (/no message found/i.test(err.message)) return null;
      throw err;
    });
    if (!m) continue;
    const dead = m.subject === s.dead;
    yield { seq, dl: dead ? (codec.decode(m.data) as DeadLetter) : null, event: dead ? null : jsonObject(m.data), time: m.time };
  }
}

/** A message's JSON object, or null (an invalid event's bytes: the indexer dead-letters it). */
function jsonObject(data: Uint8Array): Record<string, unknown> | null {
  try {
    const v: unknown = codec.decode(data);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Every dead letter in the dataset stream, oldest first. */
export async function deadLettersIn(jsm: JetStreamManager, prefix: string): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  for await (const { dl } of streamDeadLetters(jsm, prefix)) if (dl) out.push(dl);
  return out;
}
