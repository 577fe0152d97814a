/**
 * The OpenSearch client's own cost per search: the candidate searches of the 1 117 typed golden
 * queries (whole CZ register) sent three ways, interleaved query by query so that drift hits all
 * alike: through `client.search` (the client's Transport), through `searchDirect` (the client's
 * pool and connection, plain JSON; what the stores use for searches), and through a bare
 * `node:http` request (the floor); plus `GET /` (OpenSearch's least answer). Then the same
 * queries through PlacesSearchService, the engine as the goals bench times it.
 *   node -r ./tools/ts-register.js bench/opensearch-client.ts <index-prefix> [rounds=2]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { createOpenSearchClient, searchDirect } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { buildOpenSearchSearch } from '../libs/places/src/search/opensearch-query.builder';
import { CandidateQuery } from '../libs/places/src/search/candidate-query';
import { autocompleteQueries, percentiles } from './search-latency';
import { bareRequest, closeBareRequests, OPENSEARCH_URL } from './opensearch-bare';

const show = (ms: number[]) => {
  const p = percentiles(ms);
  return `${p.p50} / ${p.p95} / ${p.p99}`;
};

async function main(): Promise<void> {
  const prefix = process.argv[2];
  const rounds = Number(process.argv[3] ?? 2);
  if (!prefix) throw new Error('usage: opensearch-client.ts <index-prefix> [rounds]');
  const alias = `${prefix}-places`;
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const client = createOpenSearchClient({ url: OPENSEARCH_URL.origin, timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(client, prefix);
  const service = new PlacesSearchService(store);
  // The candidate searches the engine makes for these queries, as it makes them.
  const bodies: unknown[] = [];
  const candidates = store.candidates.bind(store);
  store.candidates = (q: CandidateQuery) => {
    const body = buildOpenSearchSearch(q);
    if (body) bodies.push(body);
    return candidates(q);
  };
  const ask = (query: string) => service.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  for (const query of queries) await ask(query);
  store.candidates = candidates;
  console.log(`${queries.length} typed queries, ${bodies.length} candidate searches; p50 / p95 / p99 ms, c1`);
  for (let round = 1; round <= rounds; round++) {
    const viaClient: number[] = [];
    const direct: number[] = [];
    const floor: number[] = [];
    const root: number[] = [];
    const saved: number[] = [];
    for (const body of bodies) {
      const json = JSON.stringify(body);
      let t = performance.now();
      await client.search({ index: alias, body: body as never });
      viaClient.push(performance.now() - t);
      t = performance.now();
      await searchDirect(client, alias, body);
      direct.push(performance.now() - t);
      t = performance.now();
      await bareRequest(`/${alias}/_search`, json);
      floor.push(performance.now() - t);
      t = performance.now();
      await bareRequest('/', null);
      root.push(performance.now() - t);
      saved.push(viaClient[viaClient.length - 1] - direct[direct.length - 1]);
    }
    const engine: number[] = [];
    for (const query of queries) {
      const t = performance.now();
      await ask(query);
      engine.push(performance.now() - t);
    }
    console.log(`round ${round}: client.search ${show(viaClient)} | searchDirect ${show(direct)} | bare node:http ${show(floor)} | GET / ${show(root)}`);
    console.log(`         client.search - searchDirect, per search: ${show(saved)} | engine (PlacesSearchService, searchDirect) ${show(engine)}`);
  }
  await client.close();
  closeBareRequests();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
