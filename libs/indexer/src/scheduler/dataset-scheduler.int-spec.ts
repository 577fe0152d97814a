import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { loadConfig } from '@lookup/shared/config';
import { ensureDatasetStream, publishDatasetEvent } from '../datasets/dataset-stream';
import { datasetSubjects } from '../datasets/datasets.constants';
import { DatasetTestServer } from '../download/dataset-server.testing';
import { DatasetScheduler } from './dataset-scheduler';
import { createDatasetScheduler } from './scheduler.factory';
import { loadScheduledSources, SchedulerConfigError } from './scheduler-sources';

const codec = JSONCodec();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('scheduler sources', () => {
  it('reads inline JSON and names the bad entry and field', () => {
    expect(loadScheduledSources('[{"country":"SK","kind":"address-changes","format":"sk-register-xml","url":"https://example.org/d.xml"}]')).toHaveLength(1);
    expect(loadScheduledSources('')).toEqual([]);
    expect(() => loadScheduledSources('[{"country":"DE","kind":"addresses","format":"x","url":"https://x"}]')).toThrow(/^SCHEDULER_SOURCES\[0\]\.country/);
    expect(() => loadScheduledSources('[{"country":"CZ","kind":"addresses","format":"x","url":"ftp://x"}]')).toThrow(SchedulerConfigError);
    expect(() => loadScheduledSources('/nonexistent/sources.json')).toThrow(/^SCHEDULER_SOURCES: ENOENT/);
  });

  it('logs a pass that cannot read its state and keeps the process alive', async () => {
    const dir = tempDir();
    const logs: string[] = [];
    // A folder where the state file should be: unreadable as JSON.
    const s = new DatasetScheduler({
      sources: [], stateFile: dir.path, downloadDir: dir.path, intervalMs: 3.6e6, timeoutMs: 100,
      publish: async () => ({ seq: 0, duplicate: false }),
      log: (level, msg) => void logs.push(`${level} ${msg}`),
    });
    s.start();
    const end = Date.now() + 3000;
    while (!logs.some((l) => l.startsWith('error dataset scheduler pass failed')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await s.stop();
    expect(logs.find((l) => l.startsWith('error'))).toMatch(/^error dataset scheduler pass failed: scheduler state .* is unreadable/);
    dir.remove();
  });

  it('is off by default', () => {
    expect(createDatasetScheduler(loadConfig({}), {} as NatsConnection, () => undefined)).toBeNull();
  });
});

describeWith(['nats'], 'dataset scheduler (loopback HTTP + JetStream)', () => {
  const server = new DatasetTestServer();
  const dir = tempDir();
  const logs: string[] = [];
  let nc: NatsConnection;
  let prefix: string;

  beforeAll(async () => {
    await server.start();
    nc = await connect({ servers: serverUrl('nats') });
  });
  const prefixes: string[] = [];
  afterAll(async () => {
    await server.stop();
    const jsm = await nc.jetstreamManager();
    for (const p of prefixes) await jsm.streams.delete(datasetSubjects(p).stream).catch(() => undefined);
    await nc.close();
    dir.remove();
  });

  async function events(): Promise<Record<string, unknown>[]> {
    const jsm = await nc.jetstreamManager();
    const s = datasetSubjects(prefix);
    const info = await jsm.streams.info(s.stream);
    const out: Record<string, unknown>[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(s.stream, { seq }).catch(() => null);
      if (m?.subject === s.updated) out.push(codec.decode(m.data) as Record<string, unknown>);
    }
    return out;
  }

  function scheduler(sources: { path: string; checksumPath?: string }[]): DatasetScheduler {
    return new DatasetScheduler({
      sources: sources.map((s, i) => ({ country: 'CZ', kind: i ? 'catalogue' : 'addresses', format: i ? 'cz-catalogue-csv' : 'ruian-csv', url: server.url(s.path), ...(s.checksumPath ? { checksumUrl: server.url(s.checksumPath) } : {}) })),
      stateFile: join(dir.path, `${prefix}-state.json`),
      downloadDir: join(dir.path, prefix),
      intervalMs: 3.6e6,
      timeoutMs: 2000,
      publish: (e) => publishDatasetEvent(nc, prefix, e),
      log: (level, msg) => void logs.push(`${level} ${msg}`),
    });
  }

  it('publishes once for a new file, nothing while it is unchanged, exactly one event when it changes', async () => {
    prefix = uniqueName('sched');
    prefixes.push(prefix);
    await ensureDatasetStream(nc, { prefix, ackWaitMs: 30000, maxDeliver: 3 });
    const v1 = Buffer.from('Kód ADM;Kód obce\n1;2\n');
    const v2 = Buffer.from('Kód ADM;Kód obce\n1;2\n3;4\n');
    server.paths.set('/adr.zip', { kind: 'file', body: v1, lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT' });
    // A host without validators: unchanged content must be recognised by its sha256.
    server.paths.set('/psc.csv', { kind: 'file', body: Buffer.from('kodcobce,nazcobce\n'), validators: false });
    const s = scheduler([{ path: '/adr.zip' }, { path: '/psc.csv' }]);

    expect(Object.values(await s.checkAll())).toEqual(['published', 'published']);
    const first = await events();
    expect(first).toHaveLength(2);
    expect(first[0]).toMatchObject({ country: 'CZ', kind: 'addresses', format: 'ruian-csv', checksum: `sha256:${sha(v1)}`, publishedAt: '2026-11-01T00:00:00.000Z' });
    expect(readFileSync(first[0]!['location'] as string)).toEqual(v1);

    const before = server.requests.length;
    expect(Object.values(await s.checkAll())).toEqual(['not-modified', 'unchanged']);
    expect(server.requests.slice(before).map((r) => r.headers['if-none-match'])).toEqual([expect.stringMatching(/^"/), undefined]);
    expect(await events()).toHaveLength(2);

    server.paths.set('/adr.zip', { kind: 'file', body: v2, lastModified: 'Mon, 02 Nov 2026 00:00:00 GMT' });
    expect(Object.values(await s.checkAll())).toEqual(['published', 'unchanged']);
    const after = await events();
    expect(after).toHaveLength(3);
    expect(after[2]).toMatchObject({ kind: 'addresses', checksum: `sha256:${sha(v2)}`, publishedAt: '2026-11-02T00:00:00.000Z' });
    // The file the first event names is still there and intact beside the new one.
    expect(readFileSync(first[0]!['location'] as string)).toEqual(v1);
    expect(readFileSync(after[2]!['location'] as string)).toEqual(v2);
  });

  it('verifies the publisher checksum, skips the download when it is unchanged, and keeps checking other sources after a failure', async () => {
    prefix = uniqueName('sched');
    prefixes.push(prefix);
    await ensureDatasetStream(nc, { prefix, ackWaitMs: 30000, maxDeliver: 3 });
    const body = Buffer.from('<register/>');
    server.paths.set('/b.xml', { kind: 'file', body });
    server.paths.set('/b.xml.sha256', { kind: 'file', body: Buffer.from(`${sha(body)}  b.xml\n`) });
    server.paths.set('/gone.csv', { kind: 'status', status: 404 });
    const s = scheduler([{ path: '/b.xml', checksumPath: '/b.xml.sha256' }, { path: '/gone.csv' }]);
    expect(Object.values(await s.checkAll())).toEqual(['published', 'failed']);
    expect(logs.some((l) => l.startsWith('error dataset source check failed') && l.includes('HTTP 404'))).toBe(true);
    const n = server.requests.length;
    expect(Object.values(await s.checkAll())).toEqual(['unchanged', 'failed']);
    expect(server.requests.slice(n).map((r) => r.path)).toEqual(['/b.xml.sha256', '/gone.csv']);
    expect(await events()).toHaveLength(1);

    // The publisher lists a checksum the file does not have: nothing is published.
    server.paths.set('/b.xml', { kind: 'file', body: Buffer.from('<register>changed</register>') });
    server.paths.set('/b.xml.sha256', { kind: 'file', body: Buffer.from(`${'a'.repeat(64)}  b.xml\n`) });
    expect(Object.values(await s.checkAll())).toEqual(['failed', 'failed']);
    expect(logs.some((l) => l.includes('checksum mismatch'))).toBe(true);
    expect(await events()).toHaveLength(1);
  });

  it('runs on its timer and stops cleanly', async () => {
    prefix = uniqueName('sched');
    prefixes.push(prefix);
    await ensureDatasetStream(nc, { prefix, ackWaitMs: 30000, maxDeliver: 3 });
    server.paths.set('/t.csv', { kind: 'file', body: Buffer.from('x') });
    const s = scheduler([{ path: '/t.csv' }]);
    s.start();
    const end = Date.now() + 5000;
    while ((await events()).length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await s.stop();
    expect(await events()).toHaveLength(1);
  });
});
