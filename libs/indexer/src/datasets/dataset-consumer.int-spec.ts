import { connect, JSONCodec, NatsConnection } from 'nats';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { DatasetConsumer, DatasetJob, DeadLetter } from './dataset-consumer';
import { deadLettersIn, ensureDatasetStream, publishDatasetEvent } from './dataset-stream';
import { datasetSubjects } from './datasets.constants';
import { DatasetUpdatedEvent } from './dataset-event';

const codec = JSONCodec();

function event(location: string): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location, publishedAt: '2026-11-01T00:00:00Z' });
}

async function until(cond: () => boolean | Promise<boolean>, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeWith(['nats'], 'dataset events on JetStream', () => {
  const conns: NatsConnection[] = [];
  const consumers: DatasetConsumer[] = [];
  const logs: string[] = [];
  const log = (level: string, msg: string) => void logs.push(`${level} ${msg}`);

  async function setup(maxDeliver = 3, ackWaitMs = 30000) {
    const prefix = uniqueName('ds');
    const nc = await connect({ servers: serverUrl('nats') });
    conns.push(nc);
    await ensureDatasetStream(nc, { prefix, ackWaitMs, maxDeliver });
    return { prefix, nc };
  }

  function start(nc: NatsConnection, prefix: string, handler: (j: DatasetJob) => Promise<void>, maxDeliver = 3): DatasetConsumer {
    const c = new DatasetConsumer(nc, handler, { prefix, maxDeliver, retryDelayMs: 50, log });
    consumers.push(c);
    void c.run();
    return c;
  }

  const deadLetters = async (nc: NatsConnection, prefix: string): Promise<DeadLetter[]> => deadLettersIn(await nc.jetstreamManager(), prefix);

  async function pending(nc: NatsConnection, prefix: string): Promise<{ ackPending: number; pending: number }> {
    const s = datasetSubjects(prefix);
    const ci = await (await nc.jetstreamManager()).consumers.info(s.stream, s.durable);
    return { ackPending: ci.num_ack_pending, pending: ci.num_pending };
  }

  afterAll(async () => {
    consumers.forEach((c) => c.stop());
    await new Promise((r) => setTimeout(r, 1200));
    for (const nc of conns) await nc.close();
  });

  it('acks an event only after the handler finished, and de-duplicates a re-published one', async () => {
    const { prefix, nc } = await setup();
    const seen: string[] = [];
    start(nc, prefix, async (j) => {
      await new Promise((r) => setTimeout(r, 200));
      seen.push(j.event.location);
    });
    const first = await publishDatasetEvent(nc, prefix, event('/data/a.zip'));
    const again = await publishDatasetEvent(nc, prefix, event('/data/a.zip'));
    expect([first.duplicate, again.duplicate]).toEqual([false, true]);
    await until(async () => seen.length === 1 && (await pending(nc, prefix)).ackPending === 0);
    expect(seen).toEqual(['/data/a.zip']);
    expect(await pending(nc, prefix)).toEqual({ ackPending: 0, pending: 0 });
  });

  it('retries a failing import a bounded number of times, then dead-letters it with the reason', async () => {
    const { prefix, nc } = await setup(3);
    const attempts: number[] = [];
    start(nc, prefix, async (j) => {
      attempts.push(j.attempt);
      throw new Error('truncated zip: end of central directory not found');
    });
    await publishDatasetEvent(nc, prefix, event('/data/broken.zip'));
    await until(async () => (await deadLetters(nc, prefix)).length === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(attempts).toEqual([1, 2, 3]);
    const [dl] = await deadLetters(nc, prefix);
    expect(dl).toMatchObject({ reason: 'truncated zip: end of central directory not found', attempts: 3, event: { location: '/data/broken.zip' } });
    expect(logs.some((l) => l.startsWith('error dataset event dead-lettered after 3 attempt(s)'))).toBe(true);
    await until(async () => (await pending(nc, prefix)).ackPending === 0, 5000);
  });

  it('dead-letters a permanent failure (bad checksum, unknown format) without retrying', async () => {
    const { prefix, nc } = await setup(3);
    const attempts: number[] = [];
    start(nc, prefix, async (j) => {
      attempts.push(j.attempt);
      throw Object.assign(new Error('checksum: the file is not the one announced'), { permanent: true });
    });
    await publishDatasetEvent(nc, prefix, event('/data/other.zip'));
    await until(async () => (await deadLetters(nc, prefix)).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(attempts).toEqual([1]);
    expect((await deadLetters(nc, prefix))[0]).toMatchObject({ reason: 'checksum: the file is not the one announced', attempts: 1 });
  });

  it('dead-letters an invalid event at once', async () => {
    const { prefix, nc } = await setup();
    const calls: unknown[] = [];
    start(nc, prefix, async (j) => void calls.push(j));
    await nc.jetstream().publish(datasetSubjects(prefix).updated, codec.encode({ country: 'DE', kind: 'addresses' }));
    await until(async () => (await deadLetters(nc, prefix)).length === 1);
    expect(calls).toEqual([]);
    expect((await deadLetters(nc, prefix))[0].reason).toMatch(/^invalid event: Invalid parameter country/);
  });

  it('redelivers an event whose indexer died mid-import to the next indexer', async () => {
    const { prefix, nc } = await setup(3, 1500);
    let release!: () => void;
    const crashed = start(nc, prefix, () => new Promise<void>((r) => (release = r)));
    await publishDatasetEvent(nc, prefix, event('/data/big.zip'));
    await until(() => release !== undefined);
    // The first indexer "dies": its connection goes away without an ack.
    crashed.stop();
    await nc.close();
    const nc2 = await connect({ servers: serverUrl('nats') });
    conns.push(nc2);
    const done: number[] = [];
    start(nc2, prefix, async (j) => void done.push(j.attempt));
    await until(() => done.length === 1, 20000);
    expect(done).toEqual([2]);
    await until(async () => (await pending(nc2, prefix)).ackPending === 0);
    release();
  });
});
