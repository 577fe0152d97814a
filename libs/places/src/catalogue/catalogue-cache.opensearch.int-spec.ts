import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { emptyDoc } from '../domain/place.doc';
import { aliasIndexes, writeIndexFor } from '../store/opensearch-places.versions';
import { OpenSearchPlacesStore } from '../store/opensearch-places.store';
import { toStored } from '../store/opensearch-places.stored';
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

  it('reads the lists every time, and answers them, where the cluster refuses the stats call (403)', async () => {
    // A loopback proxy in front of the real OpenSearch that refuses `_stats` as a security plugin
    // does for a user without the monitor privilege, and passes everything else on.
    const upstream = new URL(serverUrl('opensearch'));
    const proxy: Server = createServer((req, res) => {
      if (req.url?.includes('/_stats')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'security_exception', reason: 'no permissions for [indices:monitor/stats]' }, status: 403 }));
        return;
      }
      const fwd = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(fwd);
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    const prefix = uniqueName('catcache');
    const stores = await open(prefix);
    const reader = new OpenSearchPlacesStore(createOpenSearchClient({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, timeoutMs: 10_000 }), prefix);
    try {
      await stores.writer.replaceCatalogue('CZ', [emptyDoc('CZ', 'region', 'cz_r1', 'Moravskoslezský')]);
      const reads: string[] = [];
      const list = reader.list.bind(reader);
      reader.list = (country, object) => (reads.push(object), list(country, object));
      const service = new CatalogueService(reader);
      expect((await service.regions('CZ')).map((r) => r.name)).toEqual(['Moravskoslezský']);
      await stores.writer.upsert([emptyDoc('CZ', 'region', 'cz_r2', 'Zlínský')]);
      expect((await service.regions('CZ')).map((r) => r.name)).toEqual(['Moravskoslezský', 'Zlínský']);
      expect((await service.regions('CZ')).map((r) => r.name)).toEqual(['Moravskoslezský', 'Zlínský']);
      expect(reads).toEqual(['region', 'region', 'region']);
      expect(await reader.dataStamp()).toBeNull();
    } finally {
      await reader.close();
      await stores.dispose();
      await new Promise((ok) => proxy.close(ok));
    }
  });
});
