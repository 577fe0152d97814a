import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, describeWithData, serverUrl, sharedData, tempDir, uniqueName } from '@lookup/shared/testing';
import { ruianPlaceDocs } from '../importers/address-import';
import { OpenSearchPlacesStore } from '../store/opensearch-places.store';
import { PlacesSearchService } from './places-search.service';
import { formatGolden, GOLDEN_SUBSET_SAMPLE, goldenRegisterSubset, loadGolden, runGolden } from './testing/golden-queries';
import { HardGoldenCollector, HARD_TYPES } from './testing/hard-golden.generator';

const ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const PSC_LIST = sharedData('cz/psc-list.csv');
const GOLDEN = sharedData('queries/cz-addresses.jsonl');

/**
 * The same golden run on OpenSearch: the same part of the register into an index with a unique
 * prefix (the whole register: bench/search-import.ts, then bench/search-golden.ts).
 */
describeWithData([ZIP, PSC_LIST, GOLDEN], 'golden CZ address queries on OpenSearch (part of the register)', () => {
  describeWith(['opensearch'], 'on a real OpenSearch', () => {
    const prefix = uniqueName('golden');
    const dir = tempDir('golden-opensearch-');
    const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 120_000 });
    const harder = new HardGoldenCollector(GOLDEN_SUBSET_SAMPLE);
    const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 120_000 }), prefix);

    beforeAll(async () => {
      const subset = await goldenRegisterSubset(ZIP, PSC_LIST, loadGolden(GOLDEN), dir.path);
      await store.init();
      const r = await store.bulkLoad(harder.tap(ruianPlaceDocs({ zipOrDir: subset.dir, catalogue: { pscList: PSC_LIST }, batchSize: 5000 })));
      console.log(`OpenSearch import: ${r.docs} documents in ${r.seconds.toFixed(0)} s = ${(r.docs / r.seconds).toFixed(0)} docs/s`);
    }, 3_600_000);

    afterAll(async () => {
      dir.remove();
      await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await client.close();
      await store.close();
    });

    it('finds at least 98 % of the golden queries within rank', async () => {
      const summary = await runGolden(new PlacesSearchService(store), loadGolden(GOLDEN));
      console.log(formatGolden('opensearch', summary));
      expect(summary.total).toBe(240);
      expect(summary.share).toBeGreaterThanOrEqual(0.98);
    }, 600_000);

    it('finds the harder set (typos, written-out numbers, same names, number kinds) within rank', async () => {
      const summary = await runGolden(new PlacesSearchService(store), harder.build());
      console.log(formatGolden('opensearch (harder set)', summary));
      expect(Object.keys(summary.byType).sort()).toEqual([...HARD_TYPES].sort());
      for (const t of Object.values(summary.byType)) expect(t.total).toBeGreaterThanOrEqual(40);
      expect(summary.share).toBeGreaterThanOrEqual(0.98);
    }, 600_000);
  });
});
