/**
 * The catalogue answers (`/regions`, `/counties`, `/municipalities`) of one country, step by step,
 * at concurrency 1, median of 15 calls each: the store's list (SQLite in this process, or
 * OpenSearch), the whole CatalogueService answer built anew (a new service each call), the same
 * answer kept under the store's data stamp (one service: a stamp read), the stamp read alone, and
 * of a new answer the sort by the country's alphabet and the mapping to the API's objects alone.
 * OpenSearch twice: its lists read from the packed column, and through `_source`.
 *   node -r ./tools/ts-register.js bench/catalogue-lists.ts [--sqlite <dir with places.sqlite>] [--opensearch <index-prefix>] [--country CZ]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CountryCode } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { CatalogueService } from '../libs/places/src/catalogue/catalogue.service';
import { sortByName, toCatalogueEntry, toPlace } from '../libs/places/src/domain/place.mapper';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { percentiles } from './search-latency';

const LISTS = [
  ['regions', 'region'],
  ['counties', 'county'],
  ['municipalities', 'municipality'],
] as const;

async function median(f: () => unknown, n = 15): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return percentiles(ms).p50;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
  const country = (opt('--country') ?? 'CZ') as CountryCode;
  const stores: Array<[string, PlacesStore]> = [];
  const dir = opt('--sqlite');
  if (dir) stores.push(['sqlite', new SqlitePlacesStore(join(dir, 'places.sqlite'))]);
  const prefix = opt('--opensearch');
  const openSearch = () => new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), prefix as string);
  // The lists from the packed column, and the same lists read through _source (an index made before the column).
  if (prefix) stores.push(['opensearch', openSearch()], ['opensearch, _source', openSearch().readThroughSource()]);
  if (stores.length === 0) throw new Error('usage: catalogue-lists.ts [--sqlite <dir>] [--opensearch <index-prefix>] [--country CZ]');
  console.log(`${country}, median ms of 15 calls | engine | list | items | store.list | whole answer, new | kept answer | data stamp alone | sort alone | mapping alone |`);
  for (const [engine, store] of stores) {
    await store.init();
    const service = new CatalogueService(store);
    for (const [list, object] of LISTS) {
      const docs = await store.list(country, object);
      const sorted = sortByName(docs, country);
      const map = object === 'municipality' ? () => sorted.map((d) => toPlace(d)) : () => sorted.map(toCatalogueEntry);
      const row = [
        engine,
        list,
        docs.length,
        await median(() => store.list(country, object)),
        await median(() => new CatalogueService(store)[list](country)),
        await median(() => service[list](country)),
        await median(() => store.dataStamp()),
        await median(() => sortByName(docs, country)),
        await median(map),
      ];
      console.log(`| ${row.join(' | ')} |`);
    }
    await store.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
