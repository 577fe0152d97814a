/**
 * Business import and query latency on a generated register the size of the Czech RES.
 *
 *   npm run build && node -r ./tools/paths.js dist/bench/business-bench.js
 *   BENCH_ROWS=3500000 BENCH_ENGINE=sqlite|opensearch|both BENCH_DIR=/tmp/bizbench BENCH_QUERIES=400 \
 *   OPENSEARCH_URL=http://127.0.0.1:9200
 *
 * Query latency is measured through BusinessService (engine candidates + shared ranking +
 * highlight), one query at a time, without HTTP. On OpenSearch the same queries are also read
 * through `_source` (a second store on the same index, `readThroughSource`), query by query in
 * turn with the packed column, the first of the pair alternating: what the packed column saves.
 */
import { mkdirSync, statSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BusinessIdentifierRequest, BusinessQueryRequest, parseRequest } from '@lookup/contracts';
import { createOpenSearchClient } from '@lookup/shared/search';
import { BusinessService, BusinessStore, importBusiness, OpenSearchBusinessStore, SqliteBusinessStore } from '@lookup/business';
import { GeneratedRow, rng, writeSyntheticRes } from './business-register.generator';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 3_500_000);
const ENGINE = process.env['BENCH_ENGINE'] ?? 'sqlite';
const DIR = process.env['BENCH_DIR'] ?? '/tmp/business-bench';
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 400);
const OS_URL = process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

type Kind = { name: string; run: (svc: BusinessService, row: GeneratedRow, r: () => number) => Promise<number> };

const KINDS: Kind[] = [
  { name: 'name, 3 letters typed', run: async (s, row) => (await s.byName(parseRequest(BusinessQueryRequest, { query: row.name.slice(0, 3) }))).length },
  { name: 'name, first word + 2 letters', run: async (s, row) => (await s.byName(parseRequest(BusinessQueryRequest, { query: row.name.split(' ')[0] + ' ' + (row.name.split(' ')[1] ?? '').slice(0, 2) }))).length },
  { name: 'name, whole, active=true', run: async (s, row) => (await s.byName(parseRequest(BusinessQueryRequest, { query: row.name, active: 'true' }))).length },
  { name: 'name, words reversed', run: async (s, row) => (await s.byName(parseRequest(BusinessQueryRequest, { query: row.name.split(' ').slice(0, 2).reverse().join(' ') }))).length },
  { name: 'IČO, whole without zeros', run: async (s, row) => (await s.byIdentifier(parseRequest(BusinessIdentifierRequest, { query: row.ico.replace(/^0+/, '') }))).length },
  { name: 'IČO, 4 digits typed', run: async (s, row) => (await s.byIdentifier(parseRequest(BusinessIdentifierRequest, { query: row.ico.slice(0, 4) }))).length },
];

async function bench(engine: string, store: BusinessStore, csv: string, pool: GeneratedRow[], viaSource?: OpenSearchBusinessStore): Promise<void> {
  await store.init();
  const t0 = Date.now();
  let last = 0;
  const report = await importBusiness(store, { resCsv: csv, stageDir: DIR }, 'synthetic', (n) => {
    if (n - last >= 500_000) {
      last = n;
      console.log(`  ${engine}: ${n} entities, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  });
  console.log(`\n## ${engine}: import of ${report.docs} entities: ${report.seconds.toFixed(1)} s (${Math.round(report.docs / report.seconds)} entities/s)`);
  if (store instanceof SqliteBusinessStore) console.log(`   file size: ${(statSync(join(DIR, 'business.sqlite')).size / 1e9).toFixed(2)} GB`);
  const svc = new BusinessService(store);
  const other = viaSource ? new BusinessService(viaSource) : null;
  const r = rng(7);
  const f = (n: number) => n.toFixed(1);
  console.log(`\n| ${engine}: query (${QUERIES} each, sequential) | p50 ms | p95 ms | p99 ms | max ms | mean results |${other ? ' through _source: p50 / p95 / p99 ms |' : ''}\n|---|---|---|---|---|---|${other ? '---|' : ''}`);
  for (const kind of KINDS) {
    // Warm-up, then measure.
    for (let i = 0; i < 20; i++) await kind.run(svc, pool[Math.floor(r() * pool.length)], r);
    const times: number[] = [];
    const sourceTimes: number[] = [];
    let results = 0;
    for (let i = 0; i < QUERIES; i++) {
      const row = pool[Math.floor(r() * pool.length)];
      const timed = async (s: BusinessService, into: number[]) => {
        const t = process.hrtime.bigint();
        const n = await kind.run(s, row, r);
        into.push(Number(process.hrtime.bigint() - t) / 1e6);
        return n;
      };
      if (other && i % 2 === 1) await timed(other, sourceTimes);
      results += await timed(svc, times);
      if (other && i % 2 === 0) await timed(other, sourceTimes);
    }
    const via = other ? ` ${f(pct(sourceTimes, 50))} / ${f(pct(sourceTimes, 95))} / ${f(pct(sourceTimes, 99))} |` : '';
    console.log(`| ${kind.name} | ${f(pct(times, 50))} | ${f(pct(times, 95))} | ${f(pct(times, 99))} | ${f(Math.max(...times))} | ${(results / QUERIES).toFixed(1)} |${via}`);
  }
  await store.close();
}

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const csv = join(DIR, `res_data_${ROWS}.csv`);
  const pool: GeneratedRow[] = [];
  const t0 = Date.now();
  if (existsSync(csv)) rmSync(csv);
  await writeSyntheticRes(csv, ROWS, (row) => pool.push(row));
  console.log(`generated ${ROWS} RES rows (${(statSync(csv).size / 1e9).toFixed(2)} GB) in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${pool.length} query seeds`);
  if (ENGINE === 'sqlite' || ENGINE === 'both') {
    rmSync(join(DIR, 'business.sqlite'), { force: true });
    await bench('sqlite', new SqliteBusinessStore(join(DIR, 'business.sqlite')), csv, pool);
  }
  if (ENGINE === 'opensearch' || ENGINE === 'both') {
    const prefix = `bench-${Date.now().toString(36)}`;
    const viaSource = new OpenSearchBusinessStore(createOpenSearchClient({ url: OS_URL, timeoutMs: 120000 }), prefix).readThroughSource();
    await bench('opensearch', new OpenSearchBusinessStore(createOpenSearchClient({ url: OS_URL, timeoutMs: 120000 }), prefix), csv, pool, viaSource);
    await viaSource.close();
    const client = createOpenSearchClient({ url: OS_URL, timeoutMs: 60000 });
    if (process.env['BENCH_KEEP'] !== '1') await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
