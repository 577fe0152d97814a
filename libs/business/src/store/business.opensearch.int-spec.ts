import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { OpenSearchBusinessStore } from './opensearch-business.store';
import { businessContractSuite } from '../testing/business-contract.suite';

describeWith(['opensearch'], 'business search on OpenSearch', () => {
  const dir = tempDir('business-os-');
  const prefix = uniqueName('biz');
  afterAll(async () => {
    const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    dir.remove();
  });
  businessContractSuite('opensearch', async () => {
    const store = new OpenSearchBusinessStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 }), prefix);
    await store.init();
    return store;
  }, () => dir.path);
});
