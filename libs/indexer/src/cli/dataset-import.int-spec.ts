import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { loadConfig } from '@lookup/shared/config';
import { createPlacesStore } from '@lookup/places';
import { describeWith, freePortRange, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { acquireImportLease, createOpenSearchClient } from '@lookup/shared/search';
import { hostname } from 'node:os';
import { ensureDatasetStream, publishDatasetEvent } from '../datasets/dataset-stream';
import { DatasetTestServer } from '../download/dataset-server.testing';
import { datasetSubjects } from '../datasets/datasets.constants';
import { answerProgress } from '../datasets/import-progress';
import { runDatasetImport } from './dataset-import';
import { ImportUsageError } from './import-args';
import { ImportWaitError, waitForIndexer } from './import-wait';
import { eventMsgId, parseDatasetEvent } from '../datasets/dataset-event';
import { readStatus, statusLines, statusPath } from './dataset-status';

const FIXTURES = resolve(__dirname, '../../../places/src/fixtures');
const RUIAN = join(FIXTURES, 'ruian/CSV');
const RUIAN_FILE = join(RUIAN, 'fixture_500011_ADR.csv');
const SK = join(FIXTURES, 'sk');
const SK_CHANGE = resolve(__dirname, '../../../places/src/importers/sk/sk-changes.fixture.xml');
const codec = JSONCodec();

function capture() {
  const out: string[] = [];
  const progress: string[] = [];
  return { out, progress, deps: { out: (l: string) => void out.push(l), progress: { write: (s: string) => progress.push(s), isTTY: false }, progressLogEveryMs: 0 } };
}

describe('import CLI, standalone: in-process through the pipeline', () => {
  const dir = tempDir();
  const config = loadConfig({}, { DATA_DIR: dir.path });
  afterAll(() => dir.remove());

  async function addresses(): Promise<number> {
    const store = createPlacesStore(config);
    await store.init();
    const n = await store.count('CZ', 'address');
    await store.close();
    return n;
  }

  it('--dry-run reads the whole dataset, reports counts and errors, and writes nothing', async () => {
    const c = capture();
    await runDatasetImport(['addresses', 'CZ', RUIAN, '--dry-run'], config, c.deps);
    expect(c.out[0]).toMatch(/^CZ addresses \(ruian-csv\): dry run: \d+ documents read, 2 skipped, \d+ errors; nothing written/);
    expect(c.out.some((l) => l.startsWith('  reported: ') && l.includes('7631'))).toBe(true);
    expect(await addresses()).toBe(0);
  });

  it('imports a dataset, logging JSON progress lines when not on a terminal', async () => {
    const c = capture();
    await runDatasetImport(['addresses', 'CZ', RUIAN], config, c.deps);
    expect(c.out[0]).toMatch(/^CZ addresses \(ruian-csv\): version \S+ live in sqlite: \d+ documents, 2 skipped \(previous: none\)/);
    expect(await addresses()).toBeGreaterThan(5);
    const events = c.progress.map((l) => JSON.parse(l) as { event: string; message?: string });
    const last = events.filter((e) => e.event === 'import.progress').at(-1);
    expect(last).toMatchObject({ event: 'import.progress', dataset: 'CZ addresses', docs: expect.any(Number), rate: expect.any(Number) });
    // The steps after the writing, each a line of its own, in order.
    expect(events.filter((e) => e.event === 'import.step').map((e) => e.message!.replace(/\d+/g, 'N'))).toEqual([
      'N documents written (N carried from the live version); making the new version searchable',
      'verifying the new version: N documents, canary searches',
      'switching to the new version, then removing the old one',
    ]);
  });

  it('applies an SK change batch in place, and nothing the second time', async () => {
    const c = capture();
    await runDatasetImport(['address-changes', 'SK', SK], config, c.deps);
    await runDatasetImport(['address-changes', 'SK', SK_CHANGE], config, c.deps);
    await runDatasetImport(['address-changes', 'SK', SK_CHANGE], config, c.deps);
    expect(c.out.filter((l) => !l.startsWith('  '))).toEqual([
      expect.stringMatching(/^SK address-changes \(sk-register-xml\): \d+ records \(\d+ new\), [1-9]\d* documents upserted, 0 deleted in sqlite/),
      expect.stringMatching(/: 4 records \(4 new\), [1-9]\d* documents upserted, 1 deleted in sqlite/),
      expect.stringMatching(/: 4 records \(0 new\), 0 documents upserted, 0 deleted in sqlite/),
    ]);
    // The same batch again: said so, and the status keeps describing the run that changed something.
    expect(c.out.filter((l) => l.includes('nothing new'))).toHaveLength(1);
    expect(c.out.at(-1)).toMatch(/^  note: nothing new: every record of this batch was applied before/);
    const status = readStatus(statusPath(config))['SK']!['address-changes']!;
    expect(status).toMatchObject({ source: SK_CHANGE, version: 'incremental' });
    expect(status.docs).toBeGreaterThan(0);
  });

  it('a new SK address version holds only its file: the status forgets the batches applied before, a note says so, and they apply again', async () => {
    // After the test above: the change batch is applied and on record.
    expect(readStatus(statusPath(config))['SK']!['address-changes']).toBeDefined();
    const c = capture();
    await runDatasetImport(['addresses', 'SK', SK], config, c.deps);
    expect(c.out).toContainEqual(
      expect.stringMatching(/^  note: the change batches applied to the previous version are not in this one \(the last: .*sk-changes\.fixture\.xml, applied \S+\): apply those published after this file again: npx lookup import address-changes SK <batch>$/),
    );
    expect(Object.keys(readStatus(statusPath(config))['SK']!)).toEqual(['addresses']);
    // Applied to the new version, the batch is new again (before: "0 new", nothing written, the entrance gone).
    c.out.length = 0;
    await runDatasetImport(['address-changes', 'SK', SK_CHANGE], config, c.deps);
    expect(c.out[0]).toMatch(/: 4 records \(4 new\), [1-9]\d* documents upserted, 1 deleted in sqlite/);
  });

  it('a new CZ address version: the RUIAN change file applied before applies again (the state of the old version goes), and the note names it', async () => {
    const vfr = join(FIXTURES, 'ruian-vfr/20240102_ST_ZKSH_fixture.xml');
    const c = capture();
    await runDatasetImport(['address-changes', 'CZ', vfr], config, c.deps);
    await runDatasetImport(['address-changes', 'CZ', vfr], config, c.deps);
    await runDatasetImport(['addresses', 'CZ', RUIAN], config, c.deps);
    await runDatasetImport(['address-changes', 'CZ', vfr], config, c.deps);
    const counts = c.out.filter((l) => l.startsWith('CZ address-changes')).map((l) => /\((\d+) new\)/.exec(l)?.[1]);
    expect(counts).toEqual([expect.stringMatching(/^[1-9]/), '0', counts[0]]);
    expect(c.out).toContainEqual(expect.stringMatching(/^  note: the change batches applied to the previous version are not in this one \(the last: .*20240102_ST_ZKSH_fixture\.xml/));
  });

  it('prints the first 20 messages of a run and says how many more there are and in which file', async () => {
    const own = tempDir();
    try {
      const cfg = loadConfig({}, { DATA_DIR: own.path });
      // A change batch of 25 entrances whose building the register does not hold.
      const entrance = (i: number) =>
        `<buildingNumberChange><databaseOperation>INSERT</databaseOperation><objectId>${30000 + i}</objectId><versionId>${50000 + i}</versionId>` +
        `<BuildingNumber>${i}</BuildingNumber><propertyRegistrationNumberIdentifier>${90000 + i}</propertyRegistrationNumberIdentifier></buildingNumberChange>`;
      const batch = join(own.path, 'zmenovadavka-25.xml');
      writeFileSync(batch, `<?xml version="1.0" encoding="UTF-8"?><ns0:register xmlns:ns0="http://www.minv.sk/ra"><type>BUILDING_NUMBER</type><count>25</count>${Array.from({ length: 25 }, (_, i) => entrance(i + 1)).join('')}</ns0:register>`);
      const c = capture();
      await runDatasetImport(['address-changes', 'SK', batch], cfg, c.deps);
      expect(c.out[0]).toMatch(/: 25 records \(25 new\), 0 documents upserted, 0 deleted in sqlite, 25 skipped/);
      const reported = c.out.filter((l) => l.startsWith('  reported: '));
      expect(reported).toHaveLength(20);
      expect(reported[0]).toBe('  reported: zmenovadavka-25.xml: entrance objectId 30001: its building (objectId 90001) is not a current building');
      const more = /^  \.\.\. and 5 more: all 25 in (\S+)$/.exec(c.out.at(-1)!);
      expect(more).not.toBeNull();
      expect(more![1]!.startsWith(join(own.path, 'import-reports'))).toBe(true);
      const list = readFileSync(more![1]!, 'utf8').trim().split('\n');
      expect(list[0]).toBe(`# address-changes SK ${batch}: 25 messages`);
      expect(list.slice(1)).toEqual(Array.from({ length: 25 }, (_, i) => `zmenovadavka-25.xml: entrance objectId ${30001 + i}: its building (objectId ${90001 + i}) is not a current building`));
    } finally {
      own.remove();
    }
  });

  it('fetches an http(s) dataset first (loopback server), verifying the given checksum', async () => {
    const server = new DatasetTestServer();
    await server.start();
    const body = readFileSync(join(RUIAN, 'fixture_500020_ADR.csv'));
    server.paths.set('/fixture_500020_ADR.csv', { kind: 'file', body });
    const sha = createHash('sha256').update(body).digest('hex');
    const c = capture();
    // A store of its own: this test is about the download, not about replacing a live version.
    const own = tempDir();
    const cfg = loadConfig({}, { DATA_DIR: own.path });
    try {
      await expect(runDatasetImport(['addresses', 'CZ', server.url('/fixture_500020_ADR.csv'), '--checksum', `sha256:${'2'.repeat(64)}`], cfg, c.deps)).rejects.toThrow(/checksum mismatch/);
      await runDatasetImport(['addresses', 'CZ', server.url('/fixture_500020_ADR.csv'), '--checksum', `sha256:${sha}`], cfg, c.deps);
    } finally {
      await server.stop();
    }
    expect(c.out[0]).toMatch(/^CZ addresses \(ruian-csv\): version \S+ live in sqlite: \d+ documents/);
    const store = createPlacesStore(cfg);
    await store.init();
    expect((await store.list('CZ', 'municipality')).map((m) => m.place_id)).toEqual(['cz_m500020']);
    await store.close();
    own.remove();
  });

  it("says how many of the documents written share an id with a later one (the file's own replacing the catalogue's carried ones)", async () => {
    const own = tempDir();
    const cfg = loadConfig({}, { DATA_DIR: own.path, SAMPLE_DATA: '0' });
    const c = capture();
    await runDatasetImport(['catalogue', 'CZ', join(FIXTURES, 'cz/psc-list.csv')], cfg, c.deps);
    const steps = capture();
    await runDatasetImport(['addresses', 'CZ', RUIAN], cfg, steps.deps);
    const messages = steps.progress.map((l) => JSON.parse(l) as { event: string; message?: string }).filter((e) => e.event === 'import.step').map((e) => e.message!);
    const written = /^(\d+) documents written \((\d+) carried/.exec(messages[0]!);
    const verified = /^verifying the new version: (\d+) documents \((\d+) written twice under one id: the later one kept\), canary searches$/.exec(messages[1]!);
    expect([written !== null, verified !== null]).toEqual([true, true]);
    expect(Number(written![2])).toBeGreaterThan(0);
    expect(Number(verified![1]) + Number(verified![2])).toBe(Number(written![1]));
    own.remove();
  });

  it('refuses bad input with a usage error before touching anything', async () => {
    const c = capture();
    await expect(runDatasetImport(['addresses', 'CZ', join(dir.path, 'missing.zip')], config, c.deps)).rejects.toThrow(ImportUsageError);
    await expect(runDatasetImport(['addresses', 'SK', RUIAN_FILE, '--format', 'ruian-csv'], config, c.deps)).rejects.toThrow('country: ruian-csv is a dataset of CZ, not SK');
    await expect(runDatasetImport(['addresses', 'CZ', RUIAN_FILE, '--checksum', `sha256:${'1'.repeat(64)}`], config, c.deps)).rejects.toThrow(/^--checksum: the file's is/);
  });
});

describeWith(['nats'], 'import CLI, distributed: publishes a datasets.updated event', () => {
  let nc: NatsConnection;
  const prefix = uniqueName('cli');
  const config = loadConfig({}, { PROFILE: 'distributed', NATS_URL: serverUrl('nats'), NATS_SUBJECT_PREFIX: prefix, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix });
  beforeAll(async () => {
    nc = await connect({ servers: serverUrl('nats') });
  });
  afterAll(async () => {
    await (await nc.jetstreamManager()).streams.delete(datasetSubjects(prefix).stream).catch(() => undefined);
    await nc.close();
  });

  it('says what to do when the indexer has not created the stream yet', async () => {
    await expect(runDatasetImport(['addresses', 'CZ', RUIAN_FILE], config, capture().deps)).rejects.toThrow(/stream CLI_.*_DATASETS does not exist .*start the indexer app/);
  });

  it('publishes once with the file checksum, and says so when the same file comes again', async () => {
    await ensureDatasetStream(nc, { prefix, ackWaitMs: 30000, maxDeliver: 3 });
    const s = datasetSubjects(prefix);
    const c = capture();
    await runDatasetImport(['addresses', 'CZ', RUIAN_FILE], config, c.deps);
    await runDatasetImport(['addresses', 'CZ', 'https://example.org/20231231_OB_ADR_csv.zip'], config, c.deps);
    await runDatasetImport(['addresses', 'CZ', RUIAN_FILE], config, c.deps);
    expect(c.out[2]).toMatch(/^already published \(JetStream dropped the duplicate\): stream .*, seq 1; .* to import this same file again: touch .+ and run this again$/);
    const sha = createHash('sha256').update(readFileSync(RUIAN_FILE)).digest('hex');
    expect(c.out[0]).toMatch(new RegExp(`^published datasets.updated: stream ${s.stream}, subject ${s.updated.replace(/\./g, '\\.')}, msg id CZ:addresses:sha256:${sha}:\\S+, seq 1`));
    const jsm = await nc.jetstreamManager();
    const first = codec.decode((await jsm.streams.getMessage(s.stream, { seq: 1 })).data);
    expect(first).toMatchObject({ country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: RUIAN_FILE, checksum: `sha256:${sha}` });
    const second = codec.decode((await jsm.streams.getMessage(s.stream, { seq: 2 })).data) as Record<string, unknown>;
    expect(second).toMatchObject({ location: 'https://example.org/20231231_OB_ADR_csv.zip' });
    expect(second['checksum']).toBeUndefined();
    // --dry-run never publishes: it reads the file here.
    await runDatasetImport(['addresses', 'CZ', RUIAN, '--dry-run'], loadConfig({}, { PROFILE: 'standalone', DATA_DIR: tempDir().path }), c.deps);
    expect((await jsm.streams.info(s.stream)).state.messages).toBe(2);
  });

  it('--wait rides over a status store that fails for a moment, and stops at the status naming its event', async () => {
    const event = parseDatasetEvent({ country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: '/data/x.zip', publishedAt: new Date().toISOString() });
    const ack = await publishDatasetEvent(nc, prefix, event);
    const out: string[] = [];
    let reads = 0;
    const other = { format: 'ruian-csv', source: '/data/old.zip', since: '2026-01-01T00:00:00.000Z', version: 'v0', docs: 4, event: 'CZ:addresses:/data/old.zip:2026-01-01T00:00:00.000Z' };
    const mine = { ...other, source: '/data/x.zip', version: 'v1', docs: 5, event: eventMsgId(event) };
    await waitForIndexer(event, ack, 10, {
      jsm: await nc.jetstreamManager(),
      prefix,
      out: (l) => void out.push(l),
      pollMs: 20,
      readStatus: async () => {
        reads++;
        if (reads === 1) throw new Error('connect ECONNREFUSED 127.0.0.1:9200');
        return { CZ: { addresses: reads < 4 ? other : mine } };
      },
    });
    expect(reads).toBe(4);
    expect(out).toEqual([
      'waiting for the indexer (at most 10 s)',
      "cannot look at the indexer's progress (connect ECONNREFUSED 127.0.0.1:9200); trying again",
      `live: ${statusLines({ CZ: { addresses: mine } })[0]}`,
    ]);
  });

  it('--wait says how far the indexer is with its event, when it is that event it imports', async () => {
    // Not published (nothing queued for the tests after): an event the wait never sees handled.
    const event = parseDatasetEvent({ country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: '/data/progress.zip', publishedAt: new Date().toISOString() });
    const out: string[] = [];
    let asked = 0;
    const err = await waitForIndexer(event, { seq: 1_000_000, duplicate: false }, 1, {
      jsm: await nc.jetstreamManager(),
      prefix,
      out: (l) => void out.push(l),
      pollMs: 50,
      sayEveryMs: 200,
      readStatus: async () => ({}),
      progress: async () => (++asked === 1 ? { event: 'CZ:addresses:/data/other.zip:x', dataset: 'cz-addresses', fraction: 0.2, docs: 10, seconds: 5 } : { event: eventMsgId(event), dataset: 'cz-addresses', fraction: 0.43, docs: 1_203_000, seconds: 120 }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportWaitError);
    const waiting = out.filter((l) => l.startsWith('still waiting'));
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    // Another event's progress is not this one's.
    expect(waiting[0]).not.toMatch(/importing it/);
    expect(waiting[1]).toMatch(/^still waiting after \d+ s: .*; importing it: 43 % read, 1 203 000 documents, about 3 min left$/);
  });

  it('--wait with no indexer running gives up at --wait-timeout and says the event stays queued', async () => {
    const c = capture();
    const t0 = Date.now();
    const err = await runDatasetImport(['addresses', 'CZ', join(RUIAN, 'fixture_500020_ADR.csv'), '--wait', '--wait-timeout', '2'], config, c.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportWaitError);
    // The three events of the tests before are queued too: nothing has read the consumer.
    expect((err as Error).message).toBe(
      "not live after 2 s: 0 event(s) being imported, 4 queued; no indexer is reading the stream now (start the indexer app); the event stays queued (see `lookup import status` and the indexer's log)",
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2000);
    expect(c.out.slice(0, 2)).toEqual([expect.stringMatching(/^published datasets\.updated: .* seq 4; the indexer imports it$/), 'waiting for the indexer (at most 2 s)']);
  });

  it('--wait on an event the indexer acked without a status naming it, then on its duplicate, says so and what is live', async () => {
    const s = datasetSubjects(prefix);
    const event = parseDatasetEvent({ country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: '/data/acked.zip', publishedAt: new Date().toISOString() });
    const ack = await publishDatasetEvent(nc, prefix, event);
    // What an indexer does whose status write failed: the events acked, nothing recorded.
    const consumer = await nc.jetstream().consumers.get(s.stream, s.durable);
    for (let left = ack.seq; left > 0; ) {
      const batch = await consumer.fetch({ max_messages: 10, expires: 2000 });
      for await (const m of batch) {
        m.ack();
        if (m.seq >= ack.seq) left = 0;
      }
    }
    await nc.flush();
    const out: string[] = [];
    const deps = { jsm: await nc.jetstreamManager(), prefix, out: (l: string) => void out.push(l), pollMs: 20, readStatus: async () => ({}) };
    await waitForIndexer(event, ack, 10, deps);
    expect(out.at(-1)).toBe("the indexer has handled it, but the status does not name it (see the indexer's log); live now: nothing");
    const again = await publishDatasetEvent(nc, prefix, event);
    expect(again).toEqual({ seq: ack.seq, duplicate: true });
    await waitForIndexer(event, again, 10, deps);
    expect(out.at(-1)).toBe('the indexer handled it earlier; live now: nothing');
  });

  it('--wait finds the dead letter for its event past a sequence with no message, and exits with its reason', async () => {
    const s = datasetSubjects(prefix);
    const event = parseDatasetEvent({ country: 'SK', kind: 'addresses', format: 'sk-register', location: '/data/dead.zip', publishedAt: new Date().toISOString() });
    const ack = await publishDatasetEvent(nc, prefix, event);
    const other = await publishDatasetEvent(nc, prefix, parseDatasetEvent({ ...event, location: '/data/other.zip' }));
    const jsm = await nc.jetstreamManager();
    await jsm.streams.deleteMessage(s.stream, other.seq);
    await nc.jetstream().publish(s.dead, codec.encode({ event, reason: 'verify: boom', attempts: 2, failedAt: '2026-11-28T03:00:00.000Z' }));
    const out: string[] = [];
    const err = await waitForIndexer(event, ack, 10, { jsm, prefix, out: (l) => void out.push(l), pollMs: 20, readStatus: async () => ({}) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportWaitError);
    expect((err as Error).message).toBe('the indexer gave up on it after 2 attempt(s) at 2026-11-28T03:00:00.000Z: verify: boom; nothing of it went live');
    expect(out).toEqual(['waiting for the indexer (at most 10 s)']);
  });

  it("status: the indexer's failures after what is live, or why they are not known", async () => {
    const c = capture();
    await runDatasetImport(['status'], config, c.deps);
    // The dead letter of the test before (SK addresses), nothing live; its event, written there by hand, is still queued.
    expect(c.out).toEqual([
      expect.stringMatching(/^no dataset imported yet/),
      'SK addresses       FAILED at 2026-11-28T03:00:00.000Z after 2 attempt(s): verify: boom  from /data/dead.zip',
      expect.stringMatching(/^SK addresses       QUEUED \(seq 6, published \S+\)  from \/data\/dead\.zip$/),
      // The consumer is there (the tests made it), but nothing asks it for events.
      'no indexer is reading the stream now: start the indexer app to import these',
    ]);
    const away = capture();
    await runDatasetImport(['status'], loadConfig({}, { PROFILE: 'distributed', NATS_URL: `nats://127.0.0.1:${await freePortRange(1)}`, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix }), away.deps);
    expect(away.out).toEqual([expect.stringMatching(/^no dataset imported yet/), expect.stringMatching(/^\(the indexer's failures and queue are not known: .+\)$/)]);
  });

  it('status: the event the indexer is importing and those queued behind it, oldest first; without an indexer, says to start one', async () => {
    const own = uniqueName('queue');
    const s = datasetSubjects(own);
    const ownConfig = loadConfig({}, { PROFILE: 'distributed', NATS_URL: serverUrl('nats'), NATS_SUBJECT_PREFIX: own, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: own });
    const jsm = await nc.jetstreamManager();
    const status = async () => {
      const c = capture();
      await runDatasetImport(['status'], ownConfig, c.deps);
      return c.out.slice(1);
    };
    const event = (country: string, i: number) =>
      parseDatasetEvent({ country, kind: 'addresses', format: country === 'CZ' ? 'ruian-csv' : 'sk-register', location: `/data/${country}-${i}.zip`, publishedAt: `2026-11-0${1 + (i % 9)}T00:00:00.000Z` });
    try {
      await ensureDatasetStream(nc, { prefix: own, ackWaitMs: 30000, maxDeliver: 3 });
      expect(await status()).toEqual([]);
      // The stream is there (an indexer made it), but no indexer reads it now.
      await jsm.consumers.delete(s.stream, s.durable);
      await publishDatasetEvent(nc, own, event('CZ', 1));
      await publishDatasetEvent(nc, own, event('SK', 2));
      // Published: when the stream took the event (its publishedAt is the file's time).
      const at = /\(seq (\d+), published (\S+)\)/;
      const before = Date.now();
      expect(await status()).toEqual([
        expect.stringMatching(/^CZ addresses       QUEUED \(seq 1, published \S+\)  from \/data\/CZ-1\.zip$/),
        expect.stringMatching(/^SK addresses       QUEUED \(seq 2, published \S+\)  from \/data\/SK-2\.zip$/),
        'no indexer has joined the stream yet: start the indexer app to import these',
      ]);
      const published = Date.parse(at.exec((await status())[0]!)![2]!);
      expect(before - published).toBeGreaterThanOrEqual(0);
      expect(before - published).toBeLessThan(60_000);
      // An indexer takes the first (delivered, not acked yet): it is being imported.
      await ensureDatasetStream(nc, { prefix: own, ackWaitMs: 30000, maxDeliver: 3 });
      const consumer = await nc.jetstream().consumers.get(s.stream, s.durable);
      const taken = await consumer.next({ expires: 5000 });
      expect(taken?.seq).toBe(1);
      expect((await status()).map((l) => l.replace(at, '(seq $1)'))).toEqual([
        'CZ addresses       IMPORTING (seq 1)  from /data/CZ-1.zip',
        'SK addresses       QUEUED (seq 2)  from /data/SK-2.zip',
      ]);
      // The indexer answers how far it is (answerProgress, as indexer-app does): shown under its event.
      const answering = answerProgress(nc, own, () => ({ event: eventMsgId(event('CZ', 1)), dataset: 'cz-addresses', fraction: 0.43, docs: 1_203_000, seconds: 120 }));
      await nc.flush();
      expect((await status()).map((l) => l.replace(at, '(seq $1)'))).toEqual([
        'CZ addresses       IMPORTING (seq 1)  from /data/CZ-1.zip',
        '                   43 % read, 1 203 000 documents, about 3 min left',
        'SK addresses       QUEUED (seq 2)  from /data/SK-2.zip',
      ]);
      answering.unsubscribe();
      // Done with it; 21 more published behind the second: 20 are named, the rest counted.
      taken!.ack();
      await nc.flush();
      for (let i = 3; i <= 23; i++) await publishDatasetEvent(nc, own, event('CZ', i));
      const lines = (await status()).map((l) => l.replace(at, '(seq $1)'));
      expect(lines).toHaveLength(22);
      expect(lines[0]).toBe('SK addresses       QUEUED (seq 2)  from /data/SK-2.zip');
      expect(lines[19]).toBe('CZ addresses       QUEUED (seq 21)  from /data/CZ-21.zip');
      expect(lines[20]).toBe('... and 2 more queued');
      // The indexer that took the first is gone (nothing asks the consumer for events, nothing is being imported).
      expect(lines[21]).toBe('no indexer is reading the stream now: start the indexer app to import these');
      // An import started from a shell holds its country's lease while it runs: shown too, until it ends.
      const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
      const lease = await acquireImportLease(client, own, 'places:CZ', 'catalogue CZ /data/zv_cobce_psc.zip');
      try {
        expect((await status()).at(-1)).toBe(`places CZ          RUNNING since ${lease.holder.startedAt}: catalogue CZ /data/zv_cobce_psc.zip  (pid ${process.pid} on ${hostname()})`);
      } finally {
        await lease.release();
      }
      expect((await status()).filter((l) => l.includes('RUNNING'))).toEqual([]);
      await client.indices.delete({ index: `${own}-import-locks` }).catch(() => undefined);
      await client.close();
    } finally {
      await jsm.streams.delete(s.stream).catch(() => undefined);
    }
  });
});
