/**
 * Re-index under load: search latency p50/p95/p99 at concurrency 8 while a whole dataset is
 * re-indexed through the pipeline (new version beside the live one, verify, atomic switch),
 * next to the same searches on the idle store, per engine.
 *   node -r ./tools/ts-register.js bench/reindex.ts <sqlite|opensearch|both> [zip] [psc-list.csv] [queries.jsonl]
 * Defaults: the whole CZ register in ../shared/data and its golden queries. Without a queries
 * file the queries are the dataset's own street names (the smoke run on a generated zip).
 * Setup imports the zip once (that first version is what the searches see during the re-index).
 * sqlite: the standalone profile, so the runner works in this process like the app's would, and
 * the searches run on its search threads (SEARCH_THREADS, default one per core; 0: this thread);
 * opensearch: the indexer's run goes to a child process (as the indexer app is its own
 * process), searches go from this one straight to the engine through PlacesSearchService.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { serverUrl } from '../libs/shared/testing/src/servers';
import { uniqueName } from '../libs/shared/testing/src/tmp';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { SearchThreads } from '../libs/places/src/search/search-threads';
import { loadConfig } from '../libs/shared/config/src';
import { ruianPlaceDocs } from '../libs/places/src/importers/address-import';
import { DatasetUpdatedEvent } from '../libs/indexer/src/datasets/dataset-event';
import { DatasetRunner } from '../libs/indexer/src/pipeline/dataset-runner';

const CONCURRENCY = 8;
const IDLE_SECONDS = Number(process.env['REINDEX_IDLE_SECONDS'] ?? 20);

interface Pcts {
  p50: number;
  p95: number;
  p99: number;
  n: number;
}

function percentiles(ms: number[]): Pcts {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => Math.round((s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN) * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}

function event(zip: string): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: zip, publishedAt: new Date().toISOString() });
}

/** What a typing user sends: each golden query after 3 letters, after each word, and whole. */
function goldenQueries(file: string): string[] {
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const text = (JSON.parse(line) as { params?: { query?: string } }).params?.query;
    if (!text) continue;
    out.push(text.slice(0, 3));
    for (let i = 4; i < text.length; i++) if (text[i] === ' ') out.push(text.slice(0, i));
    out.push(text);
  }
  return out;
}

async function datasetQueries(zip: string, pscList: string): Promise<string[]> {
  const out: string[] = [];
  let i = 0;
  for await (const b of ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList } })) {
    for (const d of b) if (d.object === 'address' && i++ % 97 === 0) out.push(d.name, d.name.slice(0, 4));
    if (out.length > 2000) break;
  }
  return out;
}

/** Searches at CONCURRENCY until `stop()` resolves; every latency in ms. */
async function searchUntil(svc: PlacesSearchService, queries: string[], stop: Promise<unknown>, label: string): Promise<{ ms: number[]; errors: number }> {
  let done = false;
  void stop.finally(() => (done = true));
  const ms: number[] = [];
  // Partial numbers every minute, so a run cut short still says something.
  const tick = setInterval(() => console.error(`${label}: ${JSON.stringify(percentiles(ms))} loadavg ${loadavg().map((l) => l.toFixed(2)).join(' ')}`), 60_000);
  void stop.finally(() => clearInterval(tick));
  let errors = 0;
  let next = 0;
  const worker = async () => {
    while (!done) {
      const q = queries[next++ % queries.length];
      const t0 = process.hrtime.bigint();
      try {
        await svc.query({ query: q, country: ['CZ'], limit: 7 } as never);
        ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      } catch {
        errors++;
      }
      // A server takes each request in its own turn of the event loop; SQLite answers
      // synchronously, so without this the searches would starve the import (and the timers).
      await new Promise((r) => setImmediate(r));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { ms, errors };
}

/** The re-index in a child process (opensearch), so the engine's client is the only thing shared. */
function childReindex(prefix: string, zip: string, pscList: string): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['-r', join(__dirname, '..', 'tools', 'ts-register.js'), __filename, '--child', prefix, zip, pscList], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => (code === 0 ? ok(out.trim()) : fail(new Error(`re-index child exited with ${code}`))));
  });
}

async function child(prefix: string, zip: string, pscList: string): Promise<void> {
  const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? serverUrl('opensearch'), timeoutMs: 120000 }), prefix);
  await store.init();
  const r = await new DatasetRunner({ places: store, config: { CZ_CATALOGUE_CSV: pscList }, maxDrop: 1 }).run(event(zip));
  await store.close();
  process.stdout.write(JSON.stringify(r));
}

async function bench(engine: 'sqlite' | 'opensearch', zip: string, pscList: string, queries: string[]): Promise<Record<string, unknown>> {
  let store: PlacesStore;
  let cleanup: () => Promise<void>;
  const prefix = uniqueName('benchreindex');
  let pool: SearchThreads | null = null;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-reindex-'));
    store = new SqlitePlacesStore(join(dir, 'places.sqlite'));
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const client = createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? serverUrl('opensearch'), timeoutMs: 120000 });
    store = new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? serverUrl('opensearch'), timeoutMs: 120000 }), prefix);
    cleanup = async () => {
      await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await client.close();
    };
  }
  await store.init();
  const runner = new DatasetRunner({ places: store, config: { CZ_CATALOGUE_CSV: pscList }, maxDrop: 1 });
  try {
    const first = await runner.run(event(zip));
    console.error(`${engine}: first import ${first.docs} docs in ${first.seconds.toFixed(1)} s`);
    // SQLite: the searches on the standalone app's search threads (SEARCH_THREADS, 0 = this thread).
    const threads = engine === 'sqlite' ? loadConfig(process.env).SEARCH_THREADS : 0;
    pool = threads > 0 ? new SearchThreads(() => (store as SqlitePlacesStore).source, threads) : null;
    const svc = new PlacesSearchService(store, undefined, undefined, pool);
    const idle = await searchUntil(svc, queries, new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000)), `${engine} idle`);
    console.error(`${engine}: idle ${JSON.stringify(percentiles(idle.ms))}`);
    const load0 = loadavg();
    const t0 = Date.now();
    const reindex = engine === 'sqlite' ? runner.run(event(zip)).then((r) => JSON.stringify(r)) : childReindex(prefix, zip, pscList);
    const during = await searchUntil(svc, queries, reindex.catch(() => undefined), `${engine} during re-index`);
    const second = JSON.parse(await reindex) as { docs: number; version: string; seconds: number };
    return {
      engine,
      searchThreads: threads,
      docs: second.docs,
      firstImportSeconds: first.seconds,
      reindexSeconds: (Date.now() - t0) / 1000,
      idle: percentiles(idle.ms),
      duringReindex: percentiles(during.ms),
      searchErrors: idle.errors + during.errors,
      loadavgAtStart: load0.map((l) => l.toFixed(2)).join(' '),
      loadavgAtEnd: loadavg().map((l) => l.toFixed(2)).join(' '),
    };
  } finally {
    await pool?.close();
    await store.close();
    await cleanup();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], args[2], args[3]);
  const engines = args[0] === 'both' || !args[0] ? (['sqlite', 'opensearch'] as const) : [args[0] as 'sqlite' | 'opensearch'];
  if (!engines.every((e) => e === 'sqlite' || e === 'opensearch')) throw new Error(`engine: sqlite, opensearch or both, got ${args[0]}`);
  const zip = resolve(args[1] ?? '../shared/data/cz/20231231_OB_ADR_csv.zip');
  const pscList = resolve(args[2] ?? '../shared/data/cz/psc-list.csv');
  const queryFile = args[3] ?? (args[1] ? undefined : '../shared/data/queries/cz-addresses.jsonl');
  for (const p of [zip, pscList]) if (!existsSync(p)) throw new Error(`not found: ${p}`);
  const queries = queryFile ? goldenQueries(resolve(queryFile)) : await datasetQueries(zip, pscList);
  const rows: Array<Record<string, unknown>> = [];
  for (const e of engines) {
    const r = await bench(e, zip, pscList, queries);
    console.log(JSON.stringify(r));
    rows.push(r);
  }
  console.log(`\n| engine | docs | re-index | idle p50 / p95 / p99 ms | during re-index p50 / p95 / p99 ms | loadavg |`);
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const i = r['idle'] as Pcts;
    const d = r['duringReindex'] as Pcts;
    console.log(`| ${r['engine']} | ${r['docs']} | ${(r['reindexSeconds'] as number).toFixed(1)} s | ${i.p50} / ${i.p95} / ${i.p99} (n=${i.n}) | ${d.p50} / ${d.p95} / ${d.p99} (n=${d.n}) | ${r['loadavgAtStart']} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
