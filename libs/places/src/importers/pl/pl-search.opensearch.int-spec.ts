import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../../store/opensearch-places.store';
import { plSearchSuite } from './pl-search.suite';

/** The distributed engine: the same PL suite against a real OpenSearch, in an index of its own. */
describeWith(['opensearch'], 'PL places search on OpenSearch', () => {
  const prefix = uniqueName('plsearch');
  plSearchSuite(
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
