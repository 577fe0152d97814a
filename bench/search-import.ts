/**
 * Whole CZ register (RUIAN zip) into one search engine through the store's bulk path: import
 * rate and peak RSS of this process (for OpenSearch the engine's own memory is not included).
 *   node -r ./tools/ts-register.js bench/search-import.ts sqlite <file.sqlite> [zip] [psc-list.csv]
 *   node -r ./tools/ts-register.js bench/search-import.ts opensearch <index-prefix> [zip] [psc-list.csv]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server. Prints one JSON line.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { AddressImportReport, ruianPlaceDocs } from '../libs/places/src/importers/address-import';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';

async function main(): Promise<void> {
  const [engine, target] = process.argv.slice(2, 4);
  const zip = resolve(process.argv[4] ?? '../shared/data/cz/20231231_OB_ADR_csv.zip');
  const pscList = resolve(process.argv[5] ?? '../shared/data/cz/psc-list.csv');
  if (!target || (engine !== 'sqlite' && engine !== 'opensearch')) throw new Error('usage: search-import.ts sqlite|opensearch <file|index-prefix> [zip] [psc-list]');
  const store: PlacesStore =
    engine === 'sqlite'
      ? new SqlitePlacesStore(resolve(target))
      : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 120000 }), target);
  await store.init();
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200);
  let report: AddressImportReport | null = null;
  let lastLog = Date.now();
  const t0 = Date.now();
  const loaded = await store.bulkLoad(ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList }, batchSize: 5000, onReport: (r) => (report = r) }), (n) => {
    if (Date.now() - lastLog > 30000) {
      lastLog = Date.now();
      process.stderr.write(`${n} docs, ${Math.round(n / ((Date.now() - t0) / 1000))}/s, rss ${Math.round(process.memoryUsage.rss() / 1048576)} MB\n`);
    }
  });
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  await store.close();
  const r = report as AddressImportReport | null;
  console.log(
    JSON.stringify({
      engine,
      docs: loaded.docs,
      addresses: r?.addresses,
      seconds: Math.round(loaded.seconds * 10) / 10,
      docsPerSecond: Math.round(loaded.docs / loaded.seconds),
      addressesPerSecond: r ? Math.round(r.addresses / loaded.seconds) : null,
      peakRssMB: Math.round(peakRss / 1048576),
      errors: r?.errors.length,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
