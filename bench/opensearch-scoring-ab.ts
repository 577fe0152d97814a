/**
 * OpenSearch candidates with and without relevance scoring, interleaved in one process on the
 * same index, with SQLite beside them: the 1 117 typed golden queries through PlacesSearchService
 * (c1), the answers compared query by query, then p50/p95/mean per variant.
 *   node -r ./tools/ts-register.js bench/opensearch-scoring-ab.ts <index-prefix> <places.sqlite>
 * "filter" is what the query builder sends (every clause a filter, `sort: ['_doc']`); "scored" is
 * the same request with the term clauses in `must` and no sort (the builder before 2026-11-26).
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { F } from '../libs/places/src/store/places.mapping';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { autocompleteQueries, percentiles } from './search-latency';

type Clause = Record<string, { should?: Array<Record<string, unknown>> } & Record<string, unknown>>;
type Body = { size?: number; track_total_hits?: boolean; sort?: unknown; query?: { bool?: { filter?: Array<Clause> } } };
type Client = ReturnType<typeof createOpenSearchClient>;

/** The builder's non-term filters: object, country, context ids (a bool of `terms`), postal-code prefix. */
let rewritten = 0;

function isFilter(c: Clause): boolean {
  if ('terms' in c) return true;
  if ('prefix' in c) return F.postalCode in c['prefix'];
  if ('bool' in c) return !!c['bool'].should?.[0] && 'terms' in c['bool'].should[0];
  return false;
}

/** The client, with candidate requests rewritten to the scored form (term clauses in `must`, no sort). */
function scoredClient(client: Client): Client {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'search') return Reflect.get(target, prop, receiver);
      return (params: { body?: Body }) => {
        const body = params.body;
        const all = body?.query?.bool?.filter;
        if (!all || !Array.isArray(body?.sort) || (body?.sort as unknown[])[0] !== '_doc') return target.search(params as never);
        rewritten++;
        const must = all.filter((c) => !isFilter(c));
        const filter = all.filter(isFilter);
        return target.search({ ...params, body: { size: body?.size, track_total_hits: false, query: { bool: { must, filter } } } } as never);
      };
    },
  });
}

async function main(): Promise<void> {
  const [prefix, sqliteFile] = process.argv.slice(2);
  if (!prefix || !sqliteFile) throw new Error('usage: opensearch-scoring-ab.ts <index-prefix> <places.sqlite>');
  const client = createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 10000 });
  const filterStore = new OpenSearchPlacesStore(client, prefix);
  const scoredStore = new OpenSearchPlacesStore(scoredClient(client), prefix);
  const sqlite = new SqlitePlacesStore(resolve(sqliteFile));
  for (const s of [filterStore, scoredStore, sqlite]) await s.init();
  const variants = { filter: new PlacesSearchService(filterStore), scored: new PlacesSearchService(scoredStore), sqlite: new PlacesSearchService(sqlite) };
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const dto = (q: string) => parseRequest(PlaceQueryRequest, { query: q, country: 'CZ' });
  const same = { 'filter = scored': 0, 'filter = sqlite': 0, 'scored = sqlite': 0 };
  for (const q of queries) {
    const f = JSON.stringify(await variants.filter.query(dto(q)));
    const s = JSON.stringify(await variants.scored.query(dto(q)));
    const l = JSON.stringify(await variants.sqlite.query(dto(q)));
    if (f === s) same['filter = scored']++;
    if (f === l) same['filter = sqlite']++;
    if (s === l) same['scored = sqlite']++;
  }
  const ms: Record<keyof typeof variants, number[]> = { filter: [], scored: [], sqlite: [] };
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      // Order swapped each round so neither variant always runs on a warm cache.
      for (const k of (round % 2 ? ['scored', 'filter', 'sqlite'] : ['filter', 'scored', 'sqlite']) as Array<keyof typeof variants>) {
        const t = performance.now();
        await variants[k].query(dto(q));
        ms[k].push(performance.now() - t);
      }
    }
  }
  const out = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, { ...percentiles(v), mean: Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 100) / 100 }]));
  console.log(JSON.stringify({ queries: queries.length, scoredRequests: rewritten, sameAnswers: same, c1: out }, null, 1));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
