import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, describeWithData, serverUrl, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../../store/opensearch-places.store';
import { GEONAMES_DATA, geonamesDataContract } from './testing/geonames-data.contract';

/** The same GeoNames import and answers on OpenSearch, in indexes of its own. */
describeWithData(GEONAMES_DATA, 'GeoNames import on OpenSearch', () => {
  describeWith(['opensearch'], 'on a real OpenSearch', () => {
    const prefix = uniqueName('geonames');
    geonamesDataContract(
      'opensearch',
      async () => {
        const s = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 60_000 }), prefix);
        await s.init();
        return s;
      },
      async (s) => {
        const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10_000 });
        await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
        await client.close();
        await s.close();
      },
    );
  });
});
