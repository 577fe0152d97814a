import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../store/opensearch-places.store';
import { placesSearchContract } from './testing/places-search.contract';

/** The distributed engine runs the same contract against a real OpenSearch, in an index of its own. */
describeWith(['opensearch'], 'places search on OpenSearch', () => {
  const prefix = uniqueName('search');
  placesSearchContract(
    'opensearch',
    async () => {
      const s = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 }), prefix);
      await s.init();
      return s;
    },
    async (s) => {
      const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
      await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await client.close();
      await s.close();
    },
  );
});
