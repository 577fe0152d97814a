import { Logger } from '@nestjs/common';
import { parseRequest, PlaceQueryRequest, PlaceReverseRequest } from '@lookup/contracts';
import { createOpenSearchClient, versionedIndexName } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { address, municipality, street } from '../search/testing/search-fixtures';
import { PlacesSearchService } from '../search/places-search.service';
import { OpenSearchPlacesStore } from './opensearch-places.store';
import { DOC_FIELD, F, PLACES_INDEX, TOKENS_FIELD } from './places.mapping';

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

  /** A new CZ version (the import's way) of Opava with its Lihovarská and two addresses on it, committed. */
  async function newOpavaVersion(on: OpenSearchPlacesStore): Promise<void> {
    const build = await on.beginVersion({ country: 'CZ', replace: 'all' });
    await build.load(
      (async function* () {
        yield [municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79'), address('opava', 'Lihovarská', '8')];
      })(),
    );
    await build.seal();
    await build.commit();
  }

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

  it('starts on an index made before the prefix index, finds by prefix there, and a new version brings the prefixes', async () => {
    const older = uniqueName('older');
    const olderAlias = `${older}-places`;
    const { index_prefixes: _prefixes, ...withoutPrefixes } = TOKENS_FIELD;
    const def = { ...PLACES_INDEX, mappings: { ...PLACES_INDEX.mappings, properties: { ...(PLACES_INDEX.mappings['properties'] as Record<string, unknown>), [F.tokens]: withoutPrefixes } } };
    await client.indices.create({ index: versionedIndexName(olderAlias, 1), body: { ...def, aliases: { [olderAlias]: {} } } as never });
    const olderStore = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), older);
    const tokensOf = async (pattern: string) =>
      Object.values((await client.indices.getMapping({ index: pattern })).body as Record<string, { mappings: { properties: Record<string, { index_prefixes?: unknown }> } }>).map((m) => m.mappings.properties[F.tokens]);
    try {
      // A field's options cannot change in place: putting the new field on it would fail the start.
      await olderStore.init();
      expect(await tokensOf(olderAlias)).toEqual([expect.not.objectContaining({ index_prefixes: expect.anything() })]);
      await olderStore.upsert([street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79')]);
      const search = new PlacesSearchService(olderStore);
      const typed = (query: string) => search.query(parseRequest(PlaceQueryRequest, { query })).then((r) => r.map((p) => p.formatted_address ?? p.street));
      expect(await typed('Lihovarská 7')).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect(await typed('Li')).toEqual(expect.arrayContaining(['Lihovarská 79, 746 01 Opava']));

      await newOpavaVersion(olderStore);
      expect(await tokensOf(`${olderAlias}-cz-*`)).toEqual([expect.objectContaining({ index_prefixes: { min_chars: 1, max_chars: 3 } })]);
      expect(await typed('Lihovarská 7')).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect(await typed('Lihovarská 8')).toEqual(['Lihovarská 8, 746 01 Opava']);
      expect(await typed('Li')).toEqual(expect.arrayContaining(['Lihovarská 79, 746 01 Opava']));
    } finally {
      await client.indices.delete({ index: `${older}-*` }).catch(() => undefined);
      await olderStore.close();
    }
  });

  it('reads candidates from an index made before the packed documents through _source, and from the column once a new version has it', async () => {
    const older = uniqueName('unpacked');
    const olderAlias = `${older}-places`;
    const props = { ...(PLACES_INDEX.mappings['properties'] as Record<string, unknown>) };
    delete props[F.doc];
    const def = { ...PLACES_INDEX, mappings: { ...PLACES_INDEX.mappings, _source: { excludes: ['tokens'] }, properties: props } };
    await client.indices.create({ index: versionedIndexName(olderAlias, 1), body: { ...def, aliases: { [olderAlias]: {} } } as never });
    const olderStore = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), older);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const now = jest.spyOn(Date, 'now');
    const docFieldOf = async (pattern: string) =>
      Object.values((await client.indices.getMapping({ index: pattern })).body as Record<string, { mappings: { properties: Record<string, unknown> } }>).map((m) => m.mappings.properties[F.doc]);
    try {
      await olderStore.init();
      // Never put on the older index: its documents would have no values, and searches would miss them.
      expect(await docFieldOf(olderAlias)).toEqual([undefined]);
      await olderStore.upsert([municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79'), address('opava', 'Lihovarská', '8')]);
      const search = new PlacesSearchService(olderStore);
      const typed = (query: string) => search.query(parseRequest(PlaceQueryRequest, { query })).then((r) => r.map((p) => p.formatted_address ?? p.street));
      const reverse = () => search.reverse(parseRequest(PlaceReverseRequest, { lat: '49.9387', lng: '17.9026', limit: '1' })).then((r) => r.map((p) => p.formatted_address));
      expect(olderStore.readsPacked).toBe(true);
      expect(await typed('Lihovarská 7')).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect(olderStore.readsPacked).toBe(false);
      const warned = warn.mock.calls.filter(([m]) => String(m).includes('without packed documents'));
      expect(warned).toHaveLength(1);
      expect(String(warned[0][0])).toContain(versionedIndexName(olderAlias, 1));
      expect(await reverse()).toHaveLength(1);
      // A minute later the column is tried again: the same answer, the same single warning.
      now.mockReturnValue(Date.now() + 61_000);
      expect(olderStore.readsPacked).toBe(true);
      expect(await reverse()).toHaveLength(1);
      expect(olderStore.readsPacked).toBe(false);
      expect(warn.mock.calls.filter(([m]) => String(m).includes('without packed documents'))).toHaveLength(1);
      // The catalogue lists read the same way.
      now.mockReturnValue(Date.now() + 61_000);
      expect(olderStore.readsPacked).toBe(true);
      expect((await olderStore.list('CZ', 'municipality')).map((d) => d.name)).toEqual(['Opava']);
      expect(olderStore.readsPacked).toBe(false);

      await newOpavaVersion(olderStore);
      expect(await docFieldOf(`${olderAlias}-cz-*`)).toEqual([DOC_FIELD]);
      now.mockReturnValue(Date.now() + 122_000);
      expect(await typed('Lihovarská 7')).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect(await typed('Lihovarská 8')).toEqual(['Lihovarská 8, 746 01 Opava']);
      expect(await reverse()).toHaveLength(1);
      expect((await olderStore.list('CZ', 'municipality')).map((d) => d.name)).toEqual(['Opava']);
      expect(olderStore.readsPacked).toBe(true);
      // The packed column stays out of the stored source, as the tokens do.
      const got = await client.search({ index: olderAlias, body: { query: { match_all: {} } } as never });
      const sources = (got.body as { hits: { hits: Array<{ _source: Record<string, unknown> }> } }).hits.hits.map((h) => h._source);
      expect(sources).toHaveLength(4); // the version's municipality, street and two addresses
      for (const source of sources) expect(Object.keys(source)).not.toEqual(expect.arrayContaining([F.doc]));
      for (const source of sources) expect(Object.keys(source)).not.toEqual(expect.arrayContaining([F.tokens]));
    } finally {
      now.mockRestore();
      warn.mockRestore();
      await client.indices.delete({ index: `${older}-*` }).catch(() => undefined);
      await olderStore.close();
    }
  });
});
