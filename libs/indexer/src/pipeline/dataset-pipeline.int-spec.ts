import { ChildProcess } from 'node:child_process';
import { copyFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { OpenSearchPlacesStore, PlacesSearchService, ruianPlaceDocs } from '@lookup/places';
import { OpenSearchBusinessStore } from '@lookup/business';
import { projectRoot } from '@lookup/shared/config';
import { createOpenSearchClient, OpenSearchClient } from '@lookup/shared/search';
import { describeWith, ensureBuilt, freePortRange, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { DatasetUpdatedEvent, eventMsgId } from '../datasets/dataset-event';
import { askProgress } from '../datasets/import-progress';
import { deadLettersIn, ensureDatasetStream, publishDatasetEvent } from '../datasets/dataset-stream';
import { datasetSubjects } from '../datasets/datasets.constants';
import { DeadLetter } from '../datasets/dataset-consumer';
import { DatasetRunner } from './dataset-runner';
import { writeRuianFixture } from './ruian-fixture.testing';
import { spawnIndexer } from '../testing/indexer-process';
import { loadConfig } from '@lookup/shared/config';
import { createDatasetStatus } from '@lookup/places';
import { runDatasetImport } from '../cli/dataset-import';
import { statusLines } from '../cli/dataset-status';
import { ImportWaitError } from '../cli/import-wait';

const ROOT = projectRoot();
const PSC_LIST = join(ROOT, 'libs/places/src/fixtures/cz/psc-list.csv');

function event(location: string, extra: Partial<DatasetUpdatedEvent> = {}): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location, publishedAt: new Date().toISOString(), ...extra });
}

async function sourceIds(zip: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const b of ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList: PSC_LIST } })) ids.push(...b.map((d) => d.place_id));
  return ids.sort();
}

/** Every CZ place_id behind the alias, duplicates included (a document twice would show twice). */
async function aliasIds(client: OpenSearchClient, alias: string): Promise<string[]> {
  const ids: string[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const res = await client.search({
      index: alias,
      body: { size: 5000, _source: false, query: { term: { country: 'CZ' } }, sort: [{ place_id: 'asc' }, { _doc: 'asc' }], ...(after ? { search_after: after } : {}) } as never,
    });
    const hits = (res.body as { hits: { hits: Array<{ sort: unknown[] }> } }).hits.hits;
    for (const h of hits) ids.push(String(h.sort[0]));
    if (hits.length < 5000) return ids.sort();
    after = hits[hits.length - 1].sort;
  }
}

async function until(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what}: not reached in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeWith(['nats', 'opensearch'], 'indexer pipeline on JetStream + OpenSearch', () => {
  const dir = tempDir('pipeline-os-');
  const prefix = uniqueName('pipe');
  const alias = `${prefix}-places`;
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix);
  const children: ChildProcess[] = [];
  const output: string[] = [];
  let nc: NatsConnection;
  let port: number;

  function startIndexer(): ChildProcess {
    const child = spawnIndexer(
      {
        PORT: String(port),
        NATS_URL: serverUrl('nats'),
        NATS_SUBJECT_PREFIX: prefix,
        OPENSEARCH_URL: serverUrl('opensearch'),
        INDEX_PREFIX: prefix,
        DATA_DIR: dir.path,
        DATASET_ACK_WAIT_MS: '3000',
        DATASET_RETRY_DELAY_MS: '100',
        DATASET_MAX_DELIVER: '3',
        LOG_LEVEL: 'info',
      },
      output,
    );
    children.push(child);
    return child;
  }

  const deadLetters = async (): Promise<DeadLetter[]> => deadLettersIn(await nc.jetstreamManager(), prefix);

  beforeAll(async () => {
    ensureBuilt(ROOT, ['dist/apps/indexer/src/main.js']);
    port = await freePortRange(1);
    nc = await connect({ servers: serverUrl('nats') });
    await ensureDatasetStream(nc, { prefix, ackWaitMs: 3000, maxDeliver: 3 });
    await store.init();
  }, 300000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await (await nc.jetstreamManager()).streams.delete(datasetSubjects(prefix).stream).catch(() => undefined);
    await nc.close();
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    await store.close();
    dir.remove();
  });

  it('an indexer killed mid-import is restarted: the import completes, searches see only the old version until the switch, the index holds exactly the source', async () => {
    const oldZip = writeRuianFixture(dir.path, { rows: 2000, streetPrefix: 'Stara' });
    const newZip = writeRuianFixture(dir.path, { rows: 40000, streetPrefix: 'Nova', admBase: 91_000_000 });
    const first = await new DatasetRunner({ places: store, config: {} }).run(event(oldZip));
    const svc = new PlacesSearchService(store);
    const ask = () => svc.street({ query: 'Stara12', country: ['CZ'], limit: 5 } as never).then((r) => r.map((p) => p.place_id).join(','));
    const oldAnswer = await ask();
    expect(oldAnswer).not.toBe('');
    const oldIds = await aliasIds(client, alias);

    // Searches all along: every answer must be the old version's until the switch, then the new one's.
    const answers: Array<{ at: number; answer: string }> = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        answers.push({ at: Date.now(), answer: await ask() });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const newEvent = event(newZip);
    await publishDatasetEvent(nc, prefix, newEvent);
    let child = startIndexer();
    // Kill it once the new version is being written (a country index not behind the alias has documents).
    await until('the first indexer writing the new version', async () => {
      const rows = (await client.cat.indices({ index: `${alias}-cz-*`, format: 'json' } as never)).body as Array<{ index: string }>;
      const live = (await store.liveVersion('CZ'))?.version ?? '-';
      for (const r of rows.filter((x) => !x.index.endsWith(live))) {
        // Not refreshed while loading: the indexing counter, not docs.count, shows the writes.
        const st = (await client.indices.stats({ index: r.index, metric: 'indexing' } as never)).body as { _all: { primaries: { indexing: { index_total: number } } } };
        if (st._all.primaries.indexing.index_total > 5000) return true;
      }
      return false;
    }, 120000);
    // It says what it imports and how far, as `import --wait` and `import status` ask it.
    const progress = await askProgress(nc, prefix, 5000);
    expect(progress).toMatchObject({ event: eventMsgId(newEvent), dataset: 'cz-addresses' });
    expect(progress!.docs + (progress!.fraction ?? 0)).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const killedAt = Date.now();
    expect((await store.liveVersion('CZ'))?.version).toBe(first.version);

    child = startIndexer();
    await until('the restarted indexer switching to the new version', async () => (await store.liveVersion('CZ'))?.version !== first.version, 180000);
    const switchedAt = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    polling = false;
    await poll;

    const before = answers.filter((a) => a.at < switchedAt - 1000);
    expect(before.length).toBeGreaterThan(10);
    expect(before.some((a) => a.at > killedAt)).toBe(true);
    for (const a of before) expect(a.answer).toBe(oldAnswer);
    // After the switch the old streets are gone; no answer was ever empty or mixed.
    for (const a of answers) expect([oldAnswer, '']).toContain(a.answer);
    expect(await ask()).toBe('');
    expect(answers.filter((a) => a.answer === '').every((a) => a.at >= switchedAt - 5000)).toBe(true);

    const expected = await sourceIds(newZip);
    const got = await aliasIds(client, alias);
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
    expect(got).not.toEqual(oldIds);
    // The killed run's half-built index is gone; only the live CZ version remains.
    const rows = (await client.cat.indices({ index: `${alias}-cz-*`, format: 'json' } as never)).body as Array<{ index: string }>;
    expect(rows.map((r) => r.index)).toEqual([`${alias}-cz-${(await store.liveVersion('CZ'))!.version}`]);
    expect(output.some((l) => l.includes('dataset cz-addresses version'))).toBe(true);
  }, 400000);

  it('a truncated file ends in the dead-letter subject at its first attempt (the same file fails the same way), named; the alias is unchanged', async () => {
    const liveBefore = await store.liveVersion('CZ');
    const targetsBefore = Object.keys((await client.indices.getAlias({ name: alias })).body as object).sort();
    const good = writeRuianFixture(dir.path, { rows: 3000, streetPrefix: 'Jina', admBase: 93_000_000, name: 'good.zip' });
    const broken = join(dir.path, 'broken.zip');
    copyFileSync(good, broken);
    truncateSync(broken, Math.floor(statSync(broken).size * 0.6));
    if (!children.some((c) => c.exitCode === null && c.signalCode === null)) startIndexer();
    await publishDatasetEvent(nc, prefix, event(broken));
    await until('the dead letter', async () => (await deadLetters()).some((d) => (d.event as { location: string }).location === broken), 60000);
    const dl = (await deadLetters()).find((d) => (d.event as { location: string }).location === broken)!;
    expect(dl.attempts).toBe(1);
    expect(dl.reason).toContain(broken);
    expect(await store.liveVersion('CZ')).toEqual(liveBefore);
    expect(Object.keys((await client.indices.getAlias({ name: alias })).body as object).sort()).toEqual(targetsBefore);
    const rows = (await client.cat.indices({ index: `${alias}-cz-*`, format: 'json' } as never)).body as Array<{ index: string }>;
    expect(rows.length).toBe(1);

    // The indexer's state is visible: readiness and metrics (last success, failures, rate).
    const base = `http://127.0.0.1:${port}`;
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    // What is live: the restarted indexer's run of the first test (the broken file never went live).
    const cz = ((await ready.json()) as { datasets: Record<string, Record<string, { source: string; docs: number; version: string }>> }).datasets['CZ']!['addresses']!;
    expect(cz).toMatchObject({ format: 'ruian-csv', version: liveBefore!.version, docs: liveBefore!.docs });
    expect(cz.source).not.toBe(broken);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/lookup_indexer_last_success_timestamp_seconds\{dataset="cz-addresses"\} \d+/);
    expect(metrics).toMatch(/lookup_indexer_runs_total\{dataset="cz-addresses",outcome="failed"\} 1/);
    expect(metrics).toMatch(/lookup_indexer_running\{dataset="cz-addresses"\} 0/);

    // Graceful stop: SIGTERM ends the process cleanly (nothing running, so at once).
    const running = children.find((c) => c.exitCode === null && c.signalCode === null)!;
    const exited = new Promise<number | null>((r) => running.once('exit', (code) => r(code)));
    running.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120000);

  it("`import --wait`, as a user runs it: back when the indexer made the file live; the indexer's reason for a broken one; a file handled before is said to be", async () => {
    if (!children.some((c) => c.exitCode === null && c.signalCode === null)) startIndexer();
    const config = loadConfig({}, {
      PROFILE: 'distributed', NATS_URL: serverUrl('nats'), NATS_SUBJECT_PREFIX: prefix, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path,
    });
    const out: string[] = [];
    const deps = { out: (l: string) => void out.push(l), progress: { write: () => true, isTTY: false } };
    const waitFor = (file: string, ...flags: string[]) => runDatasetImport(['addresses', 'CZ', file, '--wait', '--wait-timeout', '120', ...flags], config, deps);

    // Far fewer documents than the live version (the first test's 40 000 rows): refused, then taken with --force.
    const before = await store.liveVersion('CZ');
    const first = writeRuianFixture(dir.path, { rows: 2000, streetPrefix: 'Cekana', admBase: 96_000_000, name: 'wait-first.zip' });
    const refused = await waitFor(first).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportWaitError);
    expect((refused as Error).message).toMatch(new RegExp(`^the indexer gave up on it after 1 attempt\\(s\\) at \\S+: verify: the new version has \\d+ documents, [\\d.]+% fewer than the live version ${before!.version} .*\\(import it with --force to switch anyway\\); nothing of it went live$`));
    expect(await store.liveVersion('CZ')).toEqual(before);
    await waitFor(first, '--force');
    const live = await store.liveVersion('CZ');
    const status = createDatasetStatus(config);
    const recorded = (await status.read())['CZ']!['addresses']!;
    await status.close();
    expect(recorded).toMatchObject({ source: first, version: live!.version, docs: live!.docs });
    expect(out.at(-1)).toBe(`live: ${statusLines({ CZ: { addresses: recorded } })[0]}`);
    expect(await aliasIds(client, alias)).toEqual(await sourceIds(first));

    const broken = join(dir.path, 'wait-broken.zip');
    copyFileSync(writeRuianFixture(dir.path, { rows: 2000, streetPrefix: 'Vadna', admBase: 97_000_000, name: 'wait-good.zip' }), broken);
    truncateSync(broken, Math.floor(statSync(broken).size * 0.6));
    const failed = await waitFor(broken).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ImportWaitError);
    expect((failed as Error).message).toMatch(/^the indexer gave up on it after 1 attempt\(s\) at \S+: .*wait-broken\.zip.+; nothing of it went live$/);
    expect(await store.liveVersion('CZ')).toEqual(live);
    // `import status` shows the failure after what is live, until a later version goes live.
    const statusNow = async () => {
      out.length = 0;
      await runDatasetImport(['status'], config, deps);
      return out.filter((l) => l.startsWith('CZ addresses'));
    };
    const [, failedAt, reason] = /^the indexer gave up on it after 1 attempt\(s\) at (\S+): (.+); nothing of it went live$/.exec((failed as Error).message)!;
    expect(await statusNow()).toEqual([
      expect.stringMatching(new RegExp(`^CZ addresses .* version ${live!.version} `)),
      `CZ addresses       FAILED at ${failedAt} after 1 attempt(s): ${reason}  from ${broken}`,
    ]);

    const second = writeRuianFixture(dir.path, { rows: 2000, streetPrefix: 'Druha', admBase: 98_000_000, name: 'wait-second.zip' });
    await waitFor(second);
    const now = await store.liveVersion('CZ');
    expect(now!.version).not.toBe(live!.version);
    expect(await statusNow()).toEqual([expect.stringMatching(new RegExp(`^CZ addresses .* version ${now!.version} `))]);
    // The first file again: JetStream drops the duplicate; its outcome is long known.
    out.length = 0;
    await waitFor(first, '--force');
    expect(out[0]).toMatch(/^already published \(JetStream dropped the duplicate\)/);
    expect(out.at(-1)).toMatch(new RegExp(`^the indexer handled it earlier; live now: CZ addresses .* version ${now!.version} .* from .*wait-second\\.zip$`));
  }, 240000);

  it('a catalogue dataset replaces only the catalogue objects: the addresses are carried into the new version', async () => {
    const before = await aliasIds(client, alias);
    const r = await new DatasetRunner({ places: store, config: {} }).run(event(PSC_LIST, { kind: 'catalogue', format: 'cz-catalogue-csv' }));
    const after = await aliasIds(client, alias);
    expect(r.docs).toBe(after.length);
    const addresses = (ids: string[]) => ids.filter((id) => /^cz_a/.test(id));
    expect(addresses(after)).toEqual(addresses(before));
    expect(addresses(after).length).toBeGreaterThan(1000);
    expect(r.previous?.docs).toBe(before.length);
  }, 120000);

  it('migrates a deployment from before the pipeline: the shared index keeps the other countries, the country moves to its own index', async () => {
    // Under the suite prefix, so afterAll deletes its indexes too.
    const legacyPrefix = `${prefix}-legacy`;
    const legacy = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), legacyPrefix);
    await legacy.init();
    const oldZip = writeRuianFixture(dir.path, { rows: 1000, streetPrefix: 'Puvodni', admBase: 94_000_000 });
    await legacy.bulkLoad(ruianPlaceDocs({ zipOrDir: oldZip, catalogue: { pscList: PSC_LIST } }));
    const sk = { ...(await legacy.get((await sourceIds(oldZip))[0]))!, place_id: 'sk_a1', country: 'SK' as const, name: 'Hlavna 1, Kosice' };
    await legacy.upsert([sk]);
    expect(await legacy.liveVersion('CZ')).toMatchObject({ version: 'legacy', docs: (await sourceIds(oldZip)).length });

    const newZip = writeRuianFixture(dir.path, { rows: 1500, streetPrefix: 'Dalsi', admBase: 95_000_000, name: 'dalsi.zip' });
    await new DatasetRunner({ places: legacy, config: {} }).run(event(newZip));
    expect(await aliasIds(client, `${legacyPrefix}-places`)).toEqual(await sourceIds(newZip));
    expect((await legacy.get('sk_a1'))?.name).toBe('Hlavna 1, Kosice');
    // The old CZ copies in the shared index are hidden by the alias filter at once, then deleted.
    await until('the shared index emptied of CZ', async () => (await client.count({ index: `${legacyPrefix}-places-v1`, body: { query: { term: { country: 'CZ' } } } as never })).body.count === 0, 30000);
    await legacy.close();
  }, 120000);

  it('the business index goes through the same pipeline (new index, verify, one alias switch)', async () => {
    const biz = new OpenSearchBusinessStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix);
    await biz.init();
    const runner = new DatasetRunner({ places: store, business: biz, config: {} });
    const rpo = join(ROOT, 'libs/business/src/fixtures/sk/rpo-entities.json');
    const res = join(ROOT, 'libs/business/src/fixtures/cz/res_data.csv');
    const sk = await runner.run(event(rpo, { country: 'SK', kind: 'business', format: 'sk-rpo-json' }));
    const cz = await runner.run(event(res, { country: 'CZ', kind: 'business', format: 'cz-res-csv' }));
    expect(await biz.count()).toBe(sk.docs + cz.docs);
    const again = await runner.run(event(res, { country: 'CZ', kind: 'business', format: 'cz-res-csv' }));
    expect(again.previous).toEqual({ version: cz.version, docs: cz.docs });
    expect(await biz.count()).toBe(sk.docs + cz.docs);
    const targets = Object.keys((await client.indices.getAlias({ name: biz.alias })).body as object);
    expect(targets).toEqual([`${biz.alias}-v${again.version}`]);
    await biz.close();
  }, 120000);
});
