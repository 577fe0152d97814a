/**
 * The 240 golden queries against an engine that already holds the CZ register (see
 * search-import.ts): hit rate per type and latency straight at the engine, one at a time.
 *   node -r ./tools/ts-register.js bench/search-golden.ts sqlite <file.sqlite>
 *   node -r ./tools/ts-register.js bench/search-golden.ts opensearch <index-prefix>
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { formatGolden, loadGolden, runGolden } from '../libs/places/src/search/testing/golden-queries';

async function main(): Promise<void> {
  const [engine, target, file] = process.argv.slice(2, 5);
  const store: PlacesStore =
    engine === 'sqlite'
      ? new SqlitePlacesStore(resolve(target))
      : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), target);
  await store.init();
  const svc = new PlacesSearchService(store);
  const queries = loadGolden(resolve(file ?? '../shared/data/queries/cz-addresses.jsonl'));
  await runGolden(svc, queries.slice(0, 20)); // warm-up
  console.log(formatGolden(engine, await runGolden(svc, queries)));
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
