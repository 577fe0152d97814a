import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { address, street } from '../search/testing/search-fixtures';
import { OpenSearchPlacesStore } from './opensearch-places.store';

/** A version build on a real OpenSearch: what its seal leaves for the searches. */
describeWith(['opensearch'], 'OpenSearch places version build', () => {
  const prefix = uniqueName('versions');
  const alias = `${prefix}-places`;
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix);

  beforeAll(() => store.init());
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    await store.close();
  });

  /** Segments the searches of an index read, over its shards. */
  async function searchSegments(index: string): Promise<number> {
    const body = (await client.indices.segments({ index })).body as { indices: Record<string, { shards: Record<string, Array<{ num_search_segments: number }>> }> };
    return Object.values(body.indices[index].shards)
      .flat()
      .reduce((n, s) => n + s.num_search_segments, 0);
  }

  it('merges a version loaded in several segments into one at the seal, and serves every batch of it', async () => {
    const build = await store.beginVersion({ country: 'CZ', replace: 'all' });
    const pattern = `${alias}-cz-*`;
    // Each batch made a segment of its own (refreshed before the next), as a long bulk load ends up.
    for (let b = 0; b < 4; b++) {
      await build.load(
        (async function* () {
          yield [street('opava', `Ulice${b}`), address('opava', `Ulice${b}`, '1')];
        })(),
      );
      await client.indices.refresh({ index: pattern });
    }
    const [index] = Object.keys((await client.indices.get({ index: pattern })).body as object);
    expect(await searchSegments(index)).toBe(4);
    await build.seal();
    expect(await searchSegments(index)).toBe(1);
    expect(await build.count()).toBe(8);
    await build.commit();
    expect(await store.count('CZ', 'address')).toBe(4);
    expect(await store.count('CZ', 'street')).toBe(4);
  });
});
