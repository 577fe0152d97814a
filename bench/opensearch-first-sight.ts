/**
 * OpenSearch places indexes side by side (e.g. the same register imported with and without the
 * prefix index, `index_prefixes` on the tokens), with SQLite beside them: the 1 117 typed golden
 * queries through PlacesSearchService in this process (c1), each index's query cache cleared
 * first, every query seen once ("first sight": what a user typing a new address meets), then the
 * same queries again ("repeated": what a benchmark that repeats its queries measures). Two rounds,
 * the order of the indexes swapped in the second; the answers compared with SQLite's and between
 * the indexes.
 *   node -r ./tools/ts-register.js bench/opensearch-first-sight.ts <places.sqlite> <index-prefix> [<index-prefix> ...]
 * Build an index without the prefixes by importing with an older checkout (`bench/search-import.ts`).
 * `<index-prefix>:source` reads that index's hits through `_source` instead of the packed-document
 * column (`bench/.../opensearch-first-sight.ts <file> benchcz benchcz:source`: one index, both reads).
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { autocompleteQueries, percentiles } from './search-latency';

async function timed(service: PlacesSearchService, queries: string[]): Promise<{ ms: number[]; answers: string[] }> {
  const ms: number[] = [];
  const answers: string[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    const places = await service.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
    ms.push(performance.now() - t0);
    answers.push(places.map((p) => p.place_id).join(','));
  }
  return { ms, answers };
}

const show = (ms: number[]) => {
  const p = percentiles(ms);
  return `${p.p50} / ${p.p95} / ${p.p99}`;
};

async function main(): Promise<void> {
  const [sqliteFile, ...prefixes] = process.argv.slice(2);
  if (!sqliteFile || prefixes.length === 0) throw new Error('usage: opensearch-first-sight.ts <places.sqlite> <index-prefix> [<index-prefix> ...]');
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const client = createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 });
  const store = (spec: string) => {
    const [prefix, read] = spec.split(':');
    const s = new OpenSearchPlacesStore(client, prefix);
    return read === 'source' ? s.readThroughSource() : s;
  };
  const services = new Map(prefixes.map((p) => [p, new PlacesSearchService(store(p))]));
  const sqlite = new SqlitePlacesStore(resolve(sqliteFile));
  await sqlite.init();
  const answers = new Map<string, string[]>();
  console.log(`${queries.length} typed queries, c1, p50 / p95 / p99 ms`);
  for (const order of [prefixes, [...prefixes].reverse()]) {
    for (const prefix of order) {
      const service = services.get(prefix) as PlacesSearchService;
      await client.indices.clearCache({ index: `${prefix.split(':')[0]}-places` } as never);
      const first = await timed(service, queries);
      const repeated = await timed(service, queries);
      answers.set(prefix, first.answers);
      console.log(`${prefix.padEnd(16)} first sight ${show(first.ms)} | repeated ${show(repeated.ms)}`);
    }
  }
  const own = await timed(new PlacesSearchService(sqlite), queries);
  console.log(`${'sqlite'.padEnd(16)} ${show(own.ms)}`);
  const differ = (a: string[], b: string[]) => a.filter((x, i) => x !== b[i]).length;
  for (const p of prefixes) console.log(`${p}: ${differ(answers.get(p) as string[], own.answers)} answers differ from SQLite's`);
  for (let i = 1; i < prefixes.length; i++) console.log(`${prefixes[0]} vs ${prefixes[i]}: ${differ(answers.get(prefixes[0]) as string[], answers.get(prefixes[i]) as string[])} answers differ`);
  await client.close();
  await sqlite.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
