import { parseRequest, PlaceQueryRequest, PlaceReverseRequest } from '@lookup/contracts';
import { createOpenSearchClient, searchDirect } from '@lookup/shared/search';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { PlaceDoc, placeId } from '../domain/place.doc';
import { address, municipality, street } from '../search/testing/search-fixtures';
import { PlacesSearchService } from '../search/places-search.service';
import { OpenSearchPlacesStore } from './opensearch-places.store';
import { aliasIndexes, countryAliasName } from './opensearch-places.versions';
import { CountryReadAliases } from './country-read-aliases';

/**
 * A search of one country reads the country's own alias, which every switch moves with the read
 * alias: on a real OpenSearch, with two countries' versions, a re-import, a shared index and an
 * alias deleted behind a reader's back.
 */
describeWith(['opensearch'], 'OpenSearch places: a search of one country reads its own alias', () => {
  const prefix = uniqueName('countryalias');
  const alias = `${prefix}-places`;
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix);
  const search = new PlacesSearchService(store);
  const query = async (q: string, country?: string) =>
    (await search.query(parseRequest(PlaceQueryRequest, country ? { query: q, country } : { query: q }))).map((p) => p.formatted_address);

  async function newVersion(country: 'CZ' | 'SK', docs: PlaceDoc[]): Promise<void> {
    const build = await store.beginVersion({ country, replace: 'all' });
    await build.load(
      (async function* () {
        yield docs;
      })(),
    );
    await build.seal();
    await build.commit();
  }
  const cz = () => [municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79', { adm: 7901 })];
  const sk = () => [municipality('kosice'), street('kosice', 'Lihovarská'), address('kosice', 'Lihovarská', '5')];

  beforeAll(async () => {
    await store.init();
    // A country in the shared index (the first import's fast path), as deployments older than the versions hold it.
    // And one whose id names another country than its own: details find it through the read alias.
    await store.upsert([municipality('wien'), street('wien', 'Lihovarská'), address('wien', 'Lihovarská', '1'), { ...address('wien', 'Wiedner Hauptstraße', '2'), place_id: 'cz_x2' }]);
    await newVersion('CZ', cz());
    await newVersion('SK', sk());
  });
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    await store.close();
  });

  it('names exactly the live index of each country that has one, after a re-import too', async () => {
    const [czIndex] = await aliasIndexes(client, countryAliasName(alias, 'CZ'));
    expect(czIndex).toMatch(new RegExp(`^${alias}-cz-\\d+$`));
    expect(await aliasIndexes(client, countryAliasName(alias, 'SK'))).toEqual([expect.stringMatching(new RegExp(`^${alias}-sk-\\d+$`))]);
    expect(await aliasIndexes(client, countryAliasName(alias, 'AT'))).toEqual([]);

    await newVersion('CZ', cz());
    const now = await aliasIndexes(client, countryAliasName(alias, 'CZ'));
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(czIndex);
    expect((await aliasIndexes(client, alias)).sort()).toEqual([`${alias}-v1`, now[0], ...(await aliasIndexes(client, countryAliasName(alias, 'SK')))].sort());
  });

  it('sends a search of one country with its own index there, and every other search to the read alias', async () => {
    const reads = new CountryReadAliases(client, alias);
    expect(reads.target(['CZ'])).toBe(alias); // not read yet
    await reads.refresh();
    expect(reads.target(['CZ'])).toBe(`${alias}-cz`);
    expect(reads.target(['SK'])).toBe(`${alias}-sk`);
    expect(reads.target(['AT'])).toBe(alias);
    expect(reads.target(['CZ', 'SK'])).toBe(alias);
    expect(reads.target(null)).toBe(alias);
  });

  it('answers each country from its own data, and a search without a country from all of them', async () => {
    expect(await query('Lihovarská', 'CZ')).toEqual(['Lihovarská 79, 746 01 Opava']);
    expect(await query('Lihovarská', 'SK')).toEqual(['Lihovarská 5, 040 18 Košice - Krásna']);
    expect(await query('Lihovarská', 'AT')).toEqual(['Lihovarská 1, 1010 Wien']);
    expect((await query('Lihovarská')).sort()).toEqual(['Lihovarská 1, 1010 Wien', 'Lihovarská 5, 040 18 Košice - Krásna', 'Lihovarská 79, 746 01 Opava']);
    const near = await search.reverse(parseRequest(PlaceReverseRequest, { lat: 49.9387, lng: 17.9026, country: 'CZ' }));
    expect(near.map((p) => p.formatted_address)).toEqual(['Lihovarská 79, 746 01 Opava']);
    expect((await store.list('SK', 'municipality')).map((d) => d.municipality)).toEqual(['Košice - Krásna']);
  });

  it('reads the country alias, not the read alias: with CZ taken off the read alias, a CZ search still finds it', async () => {
    const [czIndex] = await aliasIndexes(client, countryAliasName(alias, 'CZ'));
    await client.indices.deleteAlias({ index: czIndex, name: alias });
    try {
      expect(await query('Lihovarská', 'CZ')).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect(await query('Lihovarská')).not.toContain('Lihovarská 79, 746 01 Opava');
      // Reverse and the catalogue lists read it too.
      const near = await search.reverse(parseRequest(PlaceReverseRequest, { lat: 49.9387, lng: 17.9026, country: 'CZ' }));
      expect(near.map((p) => p.formatted_address)).toEqual(['Lihovarská 79, 746 01 Opava']);
      expect((await store.list('CZ', 'municipality')).map((d) => d.municipality)).toEqual(['Opava']);
      // Details by id: a CZ id is asked on the CZ alias first.
      expect((await store.get(placeId('CZ', 'address', 7901)))?.street_number).toBe('79');
      expect((await store.get('cz_x2'))?.street).toBe('Wiedner Hauptstraße');
      expect(await store.get('cz_x404')).toBeNull();
    } finally {
      await client.indices.putAlias({ index: czIndex, name: alias });
    }
  });

  it('goes back to the read alias when a country alias went away behind its back, and learns of new ones as it refreshes', async () => {
    let clock = 0;
    const reads = new CountryReadAliases(client, alias, 1000, () => clock);
    await reads.refresh();
    const [skIndex] = await aliasIndexes(client, countryAliasName(alias, 'SK'));
    await client.indices.deleteAlias({ index: skIndex, name: countryAliasName(alias, 'SK') });
    try {
      const names: string[] = [];
      const hits = await reads.readThrough(['SK'], async (name) => {
        names.push(name);
        return (await client.search({ index: name, body: { query: { term: { country: 'SK' } } } })).body.hits.hits.length;
      });
      expect(names).toEqual([`${alias}-sk`, alias]);
      expect(hits).toBe(3);
      expect(reads.target(['SK'])).toBe(alias);
    } finally {
      await client.indices.putAlias({ index: skIndex, name: countryAliasName(alias, 'SK') });
    }
    // Within the interval the set stays as read; past it, the next target() reads it again in the background.
    expect(reads.target(['SK'])).toBe(alias);
    clock = 1000;
    expect(reads.target(['SK'])).toBe(alias); // this call starts the read
    for (let i = 0; i < 100 && reads.target(['SK']) === alias; i++) await new Promise((r) => setTimeout(r, 50));
    expect(reads.target(['SK'])).toBe(`${alias}-sk`);
  });
  it('asks a search again when no shard could answer it (a shard not started yet), and names the index when none ever does', async () => {
    // An index whose only shard may be put on no node: searched, the engine answers 503 "all shards failed" and lists no failure.
    const pending = `${prefix}-pending`;
    await client.indices.create({ index: pending, wait_for_active_shards: 0, body: { settings: { number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' } } } as never);
    try {
      const reads = new CountryReadAliases(client, pending);
      const failed = await reads.readThrough(null, (name) => searchDirect(client, name, { query: { match_all: {} } })).catch((e: Error) => e);
      expect((failed as Error).message).toBe(`search_phase_execution_exception: all shards failed: no shard of the index was available (not started, recovering, or deleted) for /${pending}/_search`);

      // The shard may be placed 150 ms after the first try: the search answers instead of failing.
      let tries = 0;
      const placed = new Promise((r) => setTimeout(r, 150)).then(() => client.indices.putSettings({ index: pending, body: { 'index.routing.allocation.require._name': null } } as never));
      const hits = await reads.readThrough(null, async (name) => {
        tries++;
        return (await searchDirect<{ hits: { total: { value: number } } }>(client, name, { query: { match_all: {} } })).hits.total.value;
      });
      await placed;
      expect(hits).toBe(0);
      expect(tries).toBeGreaterThanOrEqual(2);
    } finally {
      await client.indices.delete({ index: pending }).catch(() => undefined);
    }
  });
});
