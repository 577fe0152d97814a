import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { tempDir } from '@lookup/shared/testing';
import { PlacesSearchService } from '../../search/places-search.service';
import { PlacesStore } from '../../store/places.store';
import { liPlaceDocs } from './li-import';
import { writeLiFixtures } from './testing/li-fixture';

/**
 * Liechtenstein addresses imported from the test PBF extracts (an extract, then a later one in
 * which Städtle 1 became Städtle 3) and searched through PlacesSearchService on every engine.
 */
export function liSearchSuite(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`Liechtenstein addresses searched (${engine})`, () => {
    const dir = tempDir('li-search-');
    let store: PlacesStore;
    let svc: PlacesSearchService;
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);

    beforeAll(async () => {
      const { first, later } = writeLiFixtures(dir.path);
      store = await makeStore();
      for await (const batch of liPlaceDocs({ sources: [first, later], batchSize: 4 })) await store.upsert(batch);
      svc = new PlacesSearchService(store);
    });

    afterAll(async () => {
      await dispose(store);
      dir.remove();
    });

    it('autocompletes addresses, with or without umlauts', async () => {
      expect(texts(await q({ query: 'Städtle 3' }))[0]).toBe('Städtle 3, 9490 Vaduz');
      expect(texts(await q({ query: 'stadtle 3 vaduz' }))[0]).toBe('Städtle 3, 9490 Vaduz');
      expect(texts(await q({ query: 'Churer Strasse 32 Nendeln' }))[0]).toBe('Churer Strasse 32, 9485 Nendeln');
      expect(texts(await q({ query: 'Äulestr' }))[0]).toBe('Äulestrasse 20, 9490 Vaduz');
      expect(texts(await q({ query: 'Malbun 12' }))[0]).toBe('Malbun 12, 9497 Triesenberg');
    });

    it('returns the Liechtenstein field set', async () => {
      const [p] = await q({ query: 'Kirchstrasse 3 Mauren' });
      expect(p).toMatchObject({
        formatted_address: 'Kirchstrasse 3, 9493 Mauren', street: 'Kirchstrasse', building_number: '3', street_number: null,
        postal_code: '9493', municipality: 'Mauren', region: 'Unterland', country: 'LI', place_id: 'li_ar20',
      });
    });

    it('keeps only the later version of a changed element', async () => {
      expect(await q({ query: 'Städtle 1 ' })).toEqual([]);
    });

    // Needs the shared "text" helper (ue = ü, str. = strasse) in the query path.
    it('finds `ue` and `str.` spellings', async () => {
      expect(texts(await q({ query: 'Aeulestrasse 20' }))[0]).toBe('Äulestrasse 20, 9490 Vaduz');
      expect(texts(await q({ query: 'Churer Str. 32' }))[0]).toBe('Churer Strasse 32, 9485 Nendeln');
    });

    it('finds streets, municipalities and postal codes', async () => {
      const streets = await svc.street(parseRequest(StreetQueryRequest, { query: 'Landstr' }));
      expect(streets.map((p) => `${p.street} ${p.municipality}`)).toEqual(['Landstrasse Schaan']);
      const towns = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Mau' }));
      expect(towns.map((p) => [p.municipality, p.region])).toEqual([['Mauren', 'Unterland']]);
      const codes = await svc.postal(parseRequest(PostalQueryRequest, { query: '9490' }));
      expect(codes.map((p) => [p.postal_code, p.municipality])).toEqual([['9490', 'Vaduz']]);
    });

    it('reverse-geocodes to the nearest address', async () => {
      const rev = (p: Record<string, unknown>) => svc.reverse(parseRequest(PlaceReverseRequest, p));
      expect(texts(await rev({ lat: '47.14', lng: '9.52251' }))).toEqual(['Städtle 3, 9490 Vaduz']);
      expect(texts(await rev({ lat: '47.13801', lng: '9.52', country: 'LI' }))).toEqual(['Äulestrasse 20, 9490 Vaduz']);
    });
  });
}
