/**
 * Both golden sets against an engine that already holds the CZ register (see search-import.ts):
 * the shared one and the harder one generated from the register (testing/hard-golden.generator.ts),
 * whose documents are read back from a SQLite file of the same register: hit rate per type and
 * latency straight at the engine, one at a time. GOLDEN_QUERIES names another shared set.
 *   node -r ./tools/ts-register.js bench/search-golden.ts sqlite <file.sqlite>
 *   node -r ./tools/ts-register.js bench/search-golden.ts opensearch <index-prefix> <file.sqlite>
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { PlaceDoc } from '../libs/places/src/domain/place.doc';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { decodeDoc, SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { formatGolden, loadGolden, runGolden } from '../libs/places/src/search/testing/golden-queries';
import { HardGoldenCollector } from '../libs/places/src/search/testing/hard-golden.generator';

async function main(): Promise<void> {
  const [engine, target, docsFile] = process.argv.slice(2, 5);
  const collector = new HardGoldenCollector();
  const db = new Database(resolve(docsFile ?? target), { readonly: true });
  let batch: PlaceDoc[] = [];
  for (const r of db.prepare(`SELECT doc FROM places WHERE object IN ('address', 'municipality')`).iterate() as Iterable<{ doc: string }>) {
    batch.push(decodeDoc(r.doc));
    if (batch.length >= 5000) {
      collector.observe(batch);
      batch = [];
    }
  }
  collector.observe(batch);
  db.close();
  const hard = collector.build();
  if (process.env['PRINT_QUERIES']) for (const q of hard) console.log(JSON.stringify(q));
  const store: PlacesStore =
    engine === 'sqlite'
      ? new SqlitePlacesStore(resolve(target))
      : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), target);
  await store.init();
  const svc = new PlacesSearchService(store);
  const golden = loadGolden(resolve(process.env['GOLDEN_QUERIES'] ?? '../shared/data/queries/cz-addresses.jsonl'));
  await runGolden(svc, golden.slice(0, 20)); // warm-up
  console.log(formatGolden(engine, await runGolden(svc, golden)));
  console.log(formatGolden(`${engine} (harder set)`, await runGolden(svc, hard)));
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
