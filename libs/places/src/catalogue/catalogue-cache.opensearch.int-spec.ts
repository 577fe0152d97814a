import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { emptyDoc } from '../domain/place.doc';
import { aliasIndexes, writeIndexFor } from '../store/opensearch-places.versions';
import { OpenSearchPlacesStore, toStored } from '../store/opensearch-places.store';
import { CatalogueService } from './catalogue.service';
import { catalogueCacheContract } from './testing/catalogue-cache.contract';

const client = () => createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10_000 });

/** Two clients on one index prefix, as a places app and the indexer have. */
async function open(prefix: string) {
  const writer = new OpenSearchPlacesStore(client(), prefix);
  await writer.init();
  const reader = new OpenSearchPlacesStore(client(), prefix);
  await reader.init();
  return {
    reader,
    writer,
    dispose: async () => {
      const c = client();
      await c.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await c.close();
      await reader.close();
      await writer.close();
    },
  };
}

describeWith(['opensearch'], 'catalogue cache on a real OpenSearch', () => {
  catalogueCacheContract('OpenSearch', () => open(uniqueName('catcache')));

  it('keeps a list read before a refresh only until that refresh makes a written document visible', async () => {
    const stores = await open(uniqueName('catcache'));
    const raw = client();
    try {
      const service = new CatalogueService(stores.reader);
      await stores.writer.replaceCatalogue('CZ', [emptyDoc('CZ', 'region', 'cz_r1', 'Moravskoslezský')]);
      // Written without a refresh: not visible yet, so the list read now must not outlive the refresh.
      const index = writeIndexFor(stores.writer.alias, await aliasIndexes(raw, stores.writer.alias), 'CZ');
      await raw.indices.putSettings({ index, body: { index: { refresh_interval: '-1' } } });
      await raw.index({ index, id: 'cz_r2', body: toStored(emptyDoc('CZ', 'region', 'cz_r2', 'Zlínský')), refresh: false } as never);
      const before = (await service.regions('CZ')).map((r) => r.name);
      await raw.indices.refresh({ index });
      const after = (await service.regions('CZ')).map((r) => r.name);
      expect({ before, after }).toEqual({ before: ['Moravskoslezský'], after: ['Moravskoslezský', 'Zlínský'] });
    } finally {
      await raw.close();
      await stores.dispose();
    }
  });
});
