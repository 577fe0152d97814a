import { join } from 'node:path';
import { describeWithData, sharedData, tempDir } from '@lookup/shared/testing';
import { ruianPlaceDocs } from '../importers/address-import';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { PlacesSearchService } from './places-search.service';
import { formatGolden, GOLDEN_SUBSET_SAMPLE, goldenRegisterSubset, loadGolden, runGolden } from './testing/golden-queries';
import { HardGoldenCollector, HARD_TYPES } from './testing/hard-golden.generator';

const ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const PSC_LIST = sharedData('cz/psc-list.csv');
const GOLDEN = sharedData('queries/cz-addresses.jsonl');

/**
 * Part of the real CZ register (every municipality the golden queries expect, with its
 * namesakes, and every 8th other one: about 400 000 address points) imported into a fresh
 * SQLite file, then the 240 golden queries: at least 98 % must be within their rank. The whole
 * register is the benchmark's (bench/search-golden.ts, results in the README).
 */
describeWithData([ZIP, PSC_LIST, GOLDEN], 'golden CZ address queries on SQLite (part of the register)', () => {
  const dir = tempDir('golden-sqlite-');
  const store = new SqlitePlacesStore(join(dir.path, 'cz.sqlite'));
  let rate = 0;
  // The harder set is built from the documents of this same import (the register is read once).
  const harder = new HardGoldenCollector(GOLDEN_SUBSET_SAMPLE);

  beforeAll(async () => {
    const subset = await goldenRegisterSubset(ZIP, PSC_LIST, loadGolden(GOLDEN), dir.path);
    console.log(`golden subset: ${subset.municipalities.length} municipalities, ${subset.addresses} addresses`);
    await store.init();
    const r = await store.bulkLoad(harder.tap(ruianPlaceDocs({ zipOrDir: subset.dir, catalogue: { pscList: PSC_LIST }, batchSize: 5000 })));
    rate = r.docs / r.seconds;
    console.log(`SQLite import: ${r.docs} documents in ${r.seconds.toFixed(0)} s = ${rate.toFixed(0)} docs/s`);
  }, 3_600_000);

  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('finds at least 98 % of the golden queries within rank', async () => {
    const summary = await runGolden(new PlacesSearchService(store), loadGolden(GOLDEN));
    console.log(formatGolden('sqlite', summary));
    expect(summary.total).toBe(240);
    expect(summary.share).toBeGreaterThanOrEqual(0.98);
  }, 600_000);

  it('finds the harder set (typos, written-out numbers, same names, number kinds) within rank', async () => {
    const summary = await runGolden(new PlacesSearchService(store), harder.build());
    console.log(formatGolden('sqlite (harder set)', summary));
    expect(Object.keys(summary.byType).sort()).toEqual([...HARD_TYPES].sort());
    for (const t of Object.values(summary.byType)) expect(t.total).toBeGreaterThanOrEqual(40);
    expect(summary.share).toBeGreaterThanOrEqual(0.98);
  }, 600_000);
});
