import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../../store/opensearch-places.store';
import { chSearchSuite } from './ch-search.suite';

describeWith(['opensearch'], 'Swiss address search on OpenSearch', () => {
  const prefix = uniqueName('chsearch');
  chSearchSuite(
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
