/**
 * What a search's hits cost OpenSearch to fetch: the candidate searches of the 1 117 typed golden
 * queries (whole CZ register) that fill all 300 candidates, sent by bare `node:http` (c1, the
 * answer parsed) in several forms, interleaved search by search, the order reversed every
 * repetition: as the stores sent them before the packed column (`_source`), without the source
 * (`_source: false`: still `_id`, a stored field), 10 hits, no stored fields at all, and no stored
 * fields with one, six, or the packed-document doc value (`doc`, on an index that has it).
 *   node -r ./tools/ts-register.js bench/opensearch-hit-fetch.ts <index-prefix> [searches=150] [repetitions=4]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { buildOpenSearchSearch } from '../libs/places/src/search/opensearch-query.builder';
import { CandidateQuery } from '../libs/places/src/search/candidate-query';
import { autocompleteQueries, percentiles } from './search-latency';
import { bareRequest, closeBareRequests, OPENSEARCH_URL } from './opensearch-bare';

const none = { stored_fields: '_none_' };
const FORMS: Record<string, (b: Record<string, unknown>) => Record<string, unknown>> = {
  '_source (before)': (b) => b,
  '_source: false': (b) => ({ ...b, _source: false }),
  '10 hits, _source': (b) => ({ ...b, size: 10 }),
  'no stored fields': (b) => ({ ...b, ...none }),
  'doc value place_id': (b) => ({ ...b, ...none, docvalue_fields: ['place_id'] }),
  'six keyword doc values': (b) => ({ ...b, ...none, docvalue_fields: ['place_id', 'country', 'object', 'region_id', 'county_id', 'municipality_id'] }),
  'packed doc (now)': (b) => ({ ...b, ...none, docvalue_fields: ['doc'] }),
};

async function main(): Promise<void> {
  const prefix = process.argv[2];
  const searches = Number(process.argv[3] ?? 150);
  const repetitions = Number(process.argv[4] ?? 4);
  if (!prefix) throw new Error('usage: opensearch-hit-fetch.ts <index-prefix> [searches] [repetitions]');
  const alias = `${prefix}-places`;
  const client = createOpenSearchClient({ url: OPENSEARCH_URL.origin, timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(client, prefix);
  const service = new PlacesSearchService(store);
  const full: Array<Record<string, unknown>> = [];
  const candidates = store.candidates.bind(store);
  store.candidates = async (q: CandidateQuery) => {
    const docs = await candidates(q);
    if (docs.length === q.size) full.push(buildOpenSearchSearch(q) as Record<string, unknown>);
    return docs;
  };
  for (const query of autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'))) await service.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  store.candidates = candidates;
  const bodies = full.slice(0, searches);
  const names = Object.keys(FORMS);
  const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let rep = 0; rep < repetitions; rep++) {
    for (const body of bodies) {
      for (const name of rep % 2 ? names : [...names].reverse()) {
        const took = await bareRequest(`/${alias}/_search`, JSON.stringify(FORMS[name](body)));
        if (rep > 0) ms[name].push(took); // the first repetition warms the caches
      }
    }
  }
  console.log(`${bodies.length} candidate searches with 300 hits, ${repetitions - 1} timed repetitions, c1; p50 / p95 / mean ms`);
  for (const name of names) {
    const p = percentiles(ms[name]);
    const mean = ms[name].reduce((a, b) => a + b, 0) / ms[name].length;
    console.log(`${name.padEnd(24)} ${p.p50} / ${p.p95} / ${mean.toFixed(2)}`);
  }
  await client.close();
  closeBareRequests();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
