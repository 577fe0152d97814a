import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../../store/opensearch-places.store';
import { atSearchContract } from './at-search.contract';

/** The distributed engine: the same expectations against a real OpenSearch, in indexes of its own. */
describeWith(['opensearch'], 'Austrian address search on OpenSearch', () => {
  const prefix = uniqueName('at-search');
  atSearchContract(
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
