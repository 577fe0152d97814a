import { resolve } from 'node:path';
import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { PlacesSearchService } from '../../search/places-search.service';
import { PlacesStore } from '../../store/places.store';
import { chPlaceDocs } from './ch-import';

const CH = resolve(__dirname, '../../fixtures/ch');
export const CH_FIXTURE_SOURCES = [
  resolve(CH, 'amtliches-gebaeudeadressverzeichnis_ch_2056.csv'),
  resolve(CH, 'amtliches-gebaeudeadressverzeichnis_ch_2056-later.csv'),
];

/**
 * Swiss addresses imported from the fixture CSVs and searched through PlacesSearchService,
 * unchanged on every engine: `makeStore` gives a fresh, initialised, empty store.
 */
export function chSearchSuite(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`Swiss addresses searched (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);

    beforeAll(async () => {
      store = await makeStore();
      for await (const batch of chPlaceDocs({ sources: CH_FIXTURE_SOURCES, batchSize: 5 })) await store.upsert(batch);
      svc = new PlacesSearchService(store);
    });

    afterAll(async () => {
      await dispose(store);
    });

    it('autocompletes German, French and Italian street names', async () => {
      expect(texts(await q({ query: 'Bahnhofstrasse 1' })).slice(0, 2).sort()).toEqual(['Bahnhofstrasse 1, 5000 Aarau', 'Bahnhofstrasse 1, 8001 Zürich']);
      expect(texts(await q({ query: 'Bahnhofstrasse 1 Zürich' }))[0]).toBe('Bahnhofstrasse 1, 8001 Zürich');
      expect(texts(await q({ query: 'Rue du Rhône 5' }))[0]).toBe('Rue du Rhône 5, 1204 Genève');
      expect(texts(await q({ query: 'rue du rhone 5 geneve' }))[0]).toBe('Rue du Rhône 5, 1204 Genève');
      expect(texts(await q({ query: 'Via Nassa' }))).toContain('Via Nassa 14, 6900 Lugano');
      expect(texts(await q({ query: 'Bahnhofstrasse 31' }))[0]).toBe('Bahnhofstrasse 31.1, 8001 Zürich');
    });

    // Needs the query parser to read a dotted Swiss sub-number (`31.1`) as one house number.
    it('reads a dotted house number as written', async () => {
      expect(texts(await q({ query: 'Bahnhofstrasse 31.1' }))[0]).toBe('Bahnhofstrasse 31.1, 8001 Zürich');
    });

    // Needs the shared "text" helper (str./strasse/ß, ue/ü folding) in the query path.
    it('finds `str.` and `ue` spellings', async () => {
      expect(texts(await q({ query: 'Bahnhofstr. 10' }))[0]).toBe('Bahnhofstrasse 10, 8001 Zürich');
      expect(texts(await q({ query: 'Seftigenstr 264' }))[0]).toBe('Seftigenstrasse 264, 3084 Wabern');
      expect(texts(await q({ query: 'Bahnhofstraße 10 Zuerich' }))[0]).toBe('Bahnhofstrasse 10, 8001 Zürich');
    });

    it('returns the Swiss field set: whole house number, PLZ, canton', async () => {
      const [p] = await q({ query: 'Seftigenstrasse 264' });
      expect(p).toMatchObject({
        formatted_address: 'Seftigenstrasse 264, 3084 Wabern', formatted_street: 'Seftigenstrasse 264', formatted_number: '264',
        street: 'Seftigenstrasse', street_number: null, building_number: '264', postal_code: '3084', municipality: 'Köniz', district: 'Wabern',
        region: 'Bern / Berne', country: 'CH', place_id: 'ch_a190000006',
      });
      expect(texts(await q({ query: 'Wabern 264' }))[0]).toBe('Seftigenstrasse 264, 3084 Wabern');
    });

    it('finds a bilingual street under either name', async () => {
      expect(texts(await q({ query: 'Marktgasse 12a' }))[0]).toBe('Marktgasse / Rue du Marché 12a, 2502 Biel/Bienne');
      expect(texts(await q({ query: 'Rue du Marché 12a Bienne' }))[0]).toBe('Marktgasse / Rue du Marché 12a, 2502 Biel/Bienne');
    });

    it('keeps only the later version of a changed record', async () => {
      expect(await q({ query: 'Via Nassa 12' })).toEqual([]);
      expect(texts(await q({ query: 'Via Nassa 14' }))).toEqual(['Via Nassa 14, 6900 Lugano']);
    });

    it('finds streets, municipalities and postal codes', async () => {
      const streets = await svc.street(parseRequest(StreetQueryRequest, { query: 'Bahnhofstr' }));
      expect(streets.map((p) => `${p.street} ${p.municipality}`).sort()).toEqual(['Bahnhofstrasse Aarau', 'Bahnhofstrasse Zürich']);
      const towns = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Lug' }));
      expect(towns.map((p) => p.municipality)).toEqual(['Lugano']);
      const codes = await svc.postal(parseRequest(PostalQueryRequest, { query: '8001' }));
      expect(codes.map((p) => [p.postal_code, p.municipality])).toEqual([['8001', 'Zürich']]);
      expect((await svc.postal(parseRequest(PostalQueryRequest, { query: '12' }))).map((p) => p.postal_code)).toEqual(['1204']);
    });

    it('reverse-geocodes an LV95 position converted on import', async () => {
      const rev = (p: Record<string, unknown>) => svc.reverse(parseRequest(PlaceReverseRequest, p));
      // Rue du Rhône 5 was written at E 2 500 269.591, N 1 117 750.173 = 46.2038, 6.1465.
      expect(texts(await rev({ lat: '46.20381', lng: '6.14651' }))).toEqual(['Rue du Rhône 5, 1204 Genève']);
      expect(texts(await rev({ lat: '47.37700', lng: '8.53980', country: 'CH' }))).toEqual(['Bahnhofstrasse 1, 8001 Zürich']);
    });
  });
}
