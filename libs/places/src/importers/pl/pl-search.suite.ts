import { resolve } from 'node:path';
import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { PlaceDoc } from '../../domain/place.doc';
import { PlacesSearchService } from '../../search/places-search.service';
import { PlacesStore } from '../../store/places.store';
import { plPlaceDocs } from './pl-address-import';

const PL = resolve(__dirname, '../../fixtures/pl');
export const PL_FIXTURE_SOURCES = ['PRG_PunktyAdresowe-2012-22.xml', 'PRG-punkty_adresowe-2021-14.gml', 'TERC_Urzedowy_2024-01-01.csv'].map((f) => resolve(PL, f));

export async function plFixtureDocs(): Promise<PlaceDoc[]> {
  const docs: PlaceDoc[] = [];
  for await (const batch of plPlaceDocs({ sources: PL_FIXTURE_SOURCES })) docs.push(...batch);
  return docs;
}

/**
 * Polish addresses imported from the PRG fixtures (both schemas), searched through
 * PlacesSearchService: the same expectations for every engine. `makeStore` gives a fresh,
 * initialised, empty store.
 */
export function plSearchSuite(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`PL places search (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);
    const first = async (query: string) => texts(await q({ query }))[0];

    beforeAll(async () => {
      store = await makeStore();
      await store.upsert(await plFixtureDocs());
      svc = new PlacesSearchService(store);
    });

    afterAll(async () => {
      await dispose(store);
    });

    it('autocompletes addresses, streets with their TERYT prefix, in any word order', async () => {
      expect(await first('Marszałkowska 12a')).toBe('ul. Marszałkowska 12a, 00-950 Warszawa');
      expect(await first('Warszawa Marszałkowska 10')).toBe('ul. Marszałkowska 10, 00-950 Warszawa');
      expect(await first('Jana Pawła II 1-3')).toBe('al. Jana Pawła II 1-3, 00-951 Warszawa');
      expect(await first('Długa 17 Gdańsk')).toBe('Długa 17, 80-827 Gdańsk');
      expect(await first('Plac Kaszubski 3-4')).toBe('Plac Kaszubski 3-4, 80-855 Gdańsk');
      const typing = await q({ query: 'Dług' });
      expect(typing.length).toBeGreaterThan(0);
      for (const p of typing) expect(p.street).toBe('Długa');
    });

    it('finds villages without streets by locality and number', async () => {
      expect(await first('Zalesie 12')).toBe('Zalesie 12, 05-540 Zalesie');
      expect(await first('Osła 12')).toBe('Osła 12, 59-706 Osła');
    });

    it('finds the later version of a changed address only', async () => {
      expect(await first('Marszałkowska 14b')).toBe('ul. Marszałkowska 14b, 00-950 Warszawa');
      expect(texts(await q({ query: 'Długa 17a' }))).not.toContain('Długa 17a, 80-827 Gdańsk');
    });

    it('ignores Polish diacritics (ą ć ę ł ń ó ś ź ż)', async () => {
      expect(await first('marszalkowska 10 warszawa')).toBe('ul. Marszałkowska 10, 00-950 Warszawa');
      expect(await first('dluga 15 gdansk')).toBe('Długa 15, 80-827 Gdańsk');
      expect(await first('plac kaszubski 3-4')).toBe('Plac Kaszubski 3-4, 80-855 Gdańsk');
      expect(await first('os tysiaclecia 5')).toBe('os. Tysiąclecia 5, 05-500 Piaseczno');
    });

    it('reads the street type prefixes ul., al., os. as typed', async () => {
      expect(await first('ul. Marszałkowska 10')).toBe('ul. Marszałkowska 10, 00-950 Warszawa');
      expect(await first('al. Jana Pawła II 1-3')).toBe('al. Jana Pawła II 1-3, 00-951 Warszawa');
      expect(await first('os. Tysiąclecia 5')).toBe('os. Tysiąclecia 5, 05-500 Piaseczno');
    });

    it('returns the address fields in the PL model (whole number in building_number)', async () => {
      const [a] = await q({ query: 'Marszałkowska 12a' });
      expect(a).toMatchObject({
        object: 'address', country: 'PL', street: 'ul. Marszałkowska', street_number: null, building_number: '12a', postal_code: '00-950',
        municipality: 'Warszawa', county: 'Warszawa', region: 'mazowieckie', formatted_street: 'ul. Marszałkowska 12a', formatted_number: '12a',
        place_id: 'pl_ac6b8d0f2-4a6c-4e0a-c2e4-6a8c0e2a4c6e',
      });
      const [village] = await q({ query: 'Zalesie 12' });
      expect(village).toMatchObject({ street: null, district: 'Zalesie', municipality: 'Piaseczno', county: 'powiat piaseczyński', building_number: '12' });
    });

    it('matches postal codes with or without the dash, whole or partial', async () => {
      const codes = async (query: string) => (await svc.postal(parseRequest(PostalQueryRequest, { query }))).map((p) => p.postal_code);
      expect(await codes('00-950')).toEqual(['00-950']);
      expect(await codes('00950')).toEqual(['00-950']);
      expect(await codes('00-9')).toEqual(['00-950', '00-951']);
      expect(await codes('009')).toEqual(['00-950', '00-951']);
      expect(await first('Marszałkowska 10, 00-950 Warszawa')).toBe('ul. Marszałkowska 10, 00-950 Warszawa');
      expect(await first('Długa 15 80827')).toBe('Długa 15, 80-827 Gdańsk');
    });

    it('finds streets with their municipality', async () => {
      const r = await svc.street(parseRequest(StreetQueryRequest, { query: 'Marszał' }));
      expect(r.map((p) => [p.street, p.municipality])).toEqual([['ul. Marszałkowska', 'Warszawa']]);
      const gdansk = await svc.street(parseRequest(StreetQueryRequest, { query: 'dluga', municipality: 'Gdańsk' }));
      expect(gdansk.map((p) => p.street)).toEqual(['Długa']);
    });

    it('finds gminas, one per gmina whatever its town and rural parts', async () => {
      const muni = async (query: string) => (await svc.municipality(parseRequest(MunicipalityQueryRequest, { query }))).map((p) => p.municipality);
      expect(await muni('Piasec')).toEqual(['Piaseczno']);
      expect(await muni('gdansk')).toEqual(['Gdańsk']);
      expect(await muni('Gromadka')).toEqual(['Gromadka']);
      const [w] = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Warszawa' }));
      expect(w).toMatchObject({ place_id: 'pl_m146501', county: 'Warszawa', region: 'mazowieckie' });
    });

    it('reverse-geocodes to the nearest address and filters by country', async () => {
      const rev = (p: Record<string, unknown>) => svc.reverse(parseRequest(PlaceReverseRequest, p));
      expect(texts(await rev({ lat: '52.229', lng: '21.0125' }))).toEqual(['ul. Marszałkowska 10, 00-950 Warszawa']);
      expect(texts(await rev({ lat: '51.3205', lng: '15.7545' }))).toEqual(['Osła 12, 59-706 Osła']);
      expect(await rev({ lat: '52.229', lng: '21.0125', country: 'CZ' })).toEqual([]);
    });

    it('searches only the given countries', async () => {
      expect(await q({ query: 'Długa 15', country: 'CZ' })).toEqual([]);
      expect((await q({ query: 'Długa 15', country: 'PL' })).map((p) => p.country)).toContain('PL');
    });
  });
}
