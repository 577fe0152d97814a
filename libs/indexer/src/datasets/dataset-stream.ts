import { AckPolicy, DeliverPolicy, JSONCodec, NatsConnection, RetentionPolicy, StorageType } from 'nats';
import { datasetSubjects } from './datasets.constants';
import { DatasetUpdatedEvent, eventMsgId } from './dataset-event';

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
