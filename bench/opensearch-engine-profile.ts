/**
 * Where the OpenSearch engine's time goes in the places process (issue 19: OpenSearch / SQLite
 * engine p50 at most 2x). The 1 117 typed golden queries (whole CZ register) through
 * PlacesSearchService on an OpenSearch index:
 * - how many hits each candidate search brought back;
 * - with `--sqlite <dir>`, both engines query by query (interleaved, so drift hits both alike),
 *   p50 by the number of hits, which tells the per-request floor from the per-hit work;
 * - OpenSearch's own floor for the searches with few hits (bare `node:http`): `GET /`, a
 *   `match_none` search, the candidate search with `size: 0`, and as the store sends it;
 * - a V8 CPU profile of the engine's process over `rounds` rounds (idle: waiting for OpenSearch).
 *   node -r ./tools/ts-register.js bench/opensearch-engine-profile.ts <index-prefix> [--sqlite <dir>] [--out f.cpuprofile] [--rounds 3]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { createOpenSearchClient, packedBody } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { F } from '../libs/places/src/store/places.mapping';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { buildOpenSearchSearch } from '../libs/places/src/search/opensearch-query.builder';
import { CandidateQuery } from '../libs/places/src/search/candidate-query';
import { autocompleteQueries, percentiles, timeInterleaved } from './search-latency';
import { bareRequest, closeBareRequests, OPENSEARCH_URL } from './opensearch-bare';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summarize } = require('./cpuprofile-summary.js') as { summarize: (profile: unknown, top?: number) => string };

const BUCKETS: Array<[string, (hits: number) => boolean]> = [
  ['1-10 hits', (h) => h <= 10],
  ['11-299 hits', (h) => h > 10 && h < 300],
  ['300 hits', (h) => h >= 300],
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const prefix = args[0];
  if (!prefix || prefix.startsWith('--')) throw new Error('usage: opensearch-engine-profile.ts <index-prefix> [--sqlite <dir>] [--out f.cpuprofile] [--rounds 3]');
  const out = resolve(opt('--out') ?? 'bench/opensearch-engine.cpuprofile');
  const rounds = Number(opt('--rounds') ?? 3);
  const sqliteDir = opt('--sqlite');
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const client = createOpenSearchClient({ url: OPENSEARCH_URL.origin, timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(client, prefix);
  const service = new PlacesSearchService(store);
  const alias = `${prefix}-places`;

  // The candidate searches as the engine makes them, and what each brought back.
  let hits = 0;
  // The bodies are collected in the first pass only: building one again in the timed passes would
  // count against OpenSearch.
  let collecting = true;
  const made: Array<{ body: Record<string, unknown>; hits: number }> = [];
  const candidates = store.candidates.bind(store);
  store.candidates = async (q: CandidateQuery) => {
    const docs = await candidates(q);
    hits += docs.length;
    const body = collecting ? buildOpenSearchSearch(q) : null;
    if (body) made.push({ body, hits: docs.length });
    return docs;
  };
  const ask = (s: PlacesSearchService, query: string) => s.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  for (const query of queries) await ask(service, query);
  collecting = false;
  const counts = made.map((m) => m.hits).sort((a, b) => a - b);
  console.log(
    `${queries.length} queries, ${made.length} candidate searches; hits per search p50 ${counts[counts.length >> 1]}, mean ${Math.round(counts.reduce((a, b) => a + b, 0) / counts.length)}, ` +
      BUCKETS.map(([name, f]) => `${counts.filter(f).length} with ${name}`).join(', '),
  );

  if (sqliteDir) {
    const sqliteStore = new SqlitePlacesStore(resolve(sqliteDir, 'places.sqlite'));
    await sqliteStore.init();
    const sqlite = new PlacesSearchService(sqliteStore);
    for (const query of queries) await ask(sqlite, query);
    const rows: Array<{ hits: number; os: number; sq: number }> = [];
    // The hits OpenSearch's candidate searches brought back for each query (counted by the wrapper above).
    const hitsOf: number[] = [];
    const osAsk = async (query: string) => {
      hits = 0;
      await ask(service, query);
      hitsOf.push(hits);
    };
    await timeInterleaved([osAsk, (query) => ask(sqlite, query)], queries, 3, (_, [os, sq]) => rows.push({ hits: hitsOf[hitsOf.length - 1], os, sq }));
    console.log('\nboth engines, query by query, c1, p50 ms (OpenSearch / SQLite):');
    for (const [name, f] of [...BUCKETS, ['all', () => true] as [string, (h: number) => boolean]]) {
      const sel = rows.filter((x) => f(x.hits));
      const os = percentiles(sel.map((x) => x.os)).p50;
      const sq = percentiles(sel.map((x) => x.sq)).p50;
      console.log(`  ${name.padEnd(12)} ${String(sel.length).padStart(5)} searches: ${os} / ${sq} = ${(os / sq).toFixed(2)}x`);
    }
  }

  // OpenSearch's own floor, for the searches with few hits: where their time goes on its side.
  const few = made.filter((m) => m.hits <= 10);
  const path = `/${encodeURIComponent(alias)}/_search`;
  const forms: Record<string, (b: Record<string, unknown>) => string | null> = {
    'GET /': () => null,
    'match_none, size 0': () => JSON.stringify({ size: 0, query: { match_none: {} } }),
    'the search, size 0': (b) => JSON.stringify({ ...b, size: 0 }),
    'the search as sent': (b) => JSON.stringify(packedBody(b, F.doc)),
  };
  const names = Object.keys(forms);
  const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < 2; r++) {
    for (const [i, m] of few.entries()) {
      for (const n of (i + r) % 2 ? names : [...names].reverse()) ms[n].push(await bareRequest(n === 'GET /' ? '/' : path, forms[n](m.body)));
    }
  }
  console.log(`\nOpenSearch alone, the ${few.length} searches with 1-10 hits, bare node:http, p50 / p95 ms:`);
  for (const n of names) {
    const p = percentiles(ms[n]);
    console.log(`  ${n.padEnd(20)} ${p.p50} / ${p.p95}`);
  }

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const query of queries) {
      const t = performance.now();
      await ask(service, query);
      times.push(performance.now() - t);
    }
  }
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  const p = percentiles(times);
  console.log(`\nengine (profiled) p50 / p95 / p99 ${p.p50} / ${p.p95} / ${p.p99} ms over ${times.length} searches; profile: ${out}`);
  console.log(summarize(profile, 30));
  await client.close();
  closeBareRequests();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
