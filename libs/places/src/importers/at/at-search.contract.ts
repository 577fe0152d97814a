import { join, resolve } from 'node:path';
import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { PlaceDoc } from '../../domain/place.doc';
import { PlacesSearchService } from '../../search/places-search.service';
import { PlacesStore } from '../../store/places.store';
import { loadGeonamesCatalogue } from '../geonames';
import { atPlaceDocs } from './at-address-import';

const AT = resolve(__dirname, '../../fixtures/at');

/** The BEV fixture (Stichtag + a later change) with the GeoNames catalogue, as the importer yields it. */
export async function atFixtureDocs(): Promise<PlaceDoc[]> {
  const catalogue = await loadGeonamesCatalogue('AT', join(AT, 'geonames-AT.txt'));
  const docs: PlaceDoc[] = [];
  for await (const batch of atPlaceDocs({ sources: [join(AT, 'stichtag'), join(AT, 'aenderung')], catalogue })) docs.push(...batch);
  return docs;
}

/**
 * Austrian addresses imported from the BEV fixture and searched through PlacesSearchService:
 * the same expectations on every engine (`makeStore` gives a fresh, initialised, empty store).
 */
export function atSearchContract(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`Austrian addresses from the BEV register (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    let docs: PlaceDoc[];
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);
    const doc = (id: string) => docs.find((d) => d.place_id === id)!;

    beforeAll(async () => {
      store = await makeStore();
      docs = await atFixtureDocs();
      await store.upsert(docs);
      svc = new PlacesSearchService(store);
    });

    afterAll(async () => {
      await dispose(store);
    });

    it('completes an address as typed, in the Austrian form `Hauptstraße 12, 1010 Wien`', async () => {
      const r = await q({ query: 'Hauptstraße 12' });
      expect(texts(r).slice(0, 2).sort()).toEqual(['Hauptstraße 12, 1010 Wien', 'Hauptstraße 12, 2443 Leithaprodersdorf']);
      expect(r[0]).toMatchObject({ country: 'AT', formatted_country: 'Österreich', street_number: null, building_number: '12', formatted_number: '12' });
      expect(texts(await q({ query: 'Hauptstraße 12 Wien' }))[0]).toBe('Hauptstraße 12, 1010 Wien');
      expect(texts(await q({ query: 'Stephansplatz 5' }))[0]).toBe('Stephansplatz 5a, 1010 Wien');
      expect(texts(await q({ query: 'Leithaprodersdorf 27' }))[0]).toBe('Leithaprodersdorf 27, 2443 Leithaprodersdorf');
    });

    it('finds ß written as ss', async () => {
      const r = await q({ query: 'Hauptstrasse 12' });
      expect(texts(r).slice(0, 2).sort()).toEqual(['Hauptstraße 12, 1010 Wien', 'Hauptstraße 12, 2443 Leithaprodersdorf']);
    });

    it('finds the abbreviation str. and building numbers 12/3 and 12/3/5', async () => {
      expect(texts(await q({ query: 'Hauptstr. 12/3' }))[0]).toBe('Hauptstraße 12/3, 1010 Wien');
      expect(texts(await q({ query: 'Hauptstraße 12/3/5' }))[0]).toBe('Hauptstraße 12/3/5, 1010 Wien');
      expect(texts(await q({ query: 'Maria-Theresien-Str. 18' }))[0]).toBe('Maria-Theresien-Straße 18, 6020 Innsbruck');
    });

    it('searches only Austria when asked, and refines by postal code', async () => {
      const r = await q({ query: 'Hauptstraße 12', country: 'AT', postal_code: '1010' });
      expect(texts(r)[0]).toBe('Hauptstraße 12, 1010 Wien');
      expect(r.every((p) => p.postal_code === '1010')).toBe(true);
      expect(await q({ query: 'Hauptstraße 12', country: 'CZ' })).toEqual([]);
    });

    it('finds streets with their municipality', async () => {
      const r = await svc.street(parseRequest(StreetQueryRequest, { query: 'Hauptstr' }));
      expect(r.map((p) => `${p.street} ${p.municipality}`).sort()).toEqual(['Hauptstraße Leithaprodersdorf', 'Hauptstraße Wien']);
      const only = await svc.street(parseRequest(StreetQueryRequest, { query: 'Hauptstraße', municipality: 'Wien' }));
      expect(only.map((p) => p.municipality)).toEqual(['Wien']);
    });

    it('finds municipalities with county and region from the catalogue', async () => {
      const r = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Leithapro' }));
      expect(r.map((p) => p.municipality)).toEqual(['Leithaprodersdorf']);
      expect(r[0]).toMatchObject({ county: 'Eisenstadt-Umgebung', region: 'Burgenland', place_id: 'at_m10306' });
      const innsbruck = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Innsbruck' }));
      expect(innsbruck[0]).toMatchObject({ municipality: 'Innsbruck', county: 'Innsbruck Stadt', region: 'Tirol' });
    });

    it('finds the postal code 1010', async () => {
      const r = await svc.postal(parseRequest(PostalQueryRequest, { query: '1010' }));
      expect(r.map((p) => p.postal_code)).toEqual(['1010']);
      expect(r[0]).toMatchObject({ municipality: 'Wien', country: 'AT', place_id: 'at_p1010' });
      expect((await svc.postal(parseRequest(PostalQueryRequest, { query: '24' }))).map((p) => p.postal_code)).toEqual(['2443']);
    });

    it('reverse-geocodes the converted position to the address, nearest first', async () => {
      const h12 = doc('at_a6100001');
      const rev = (p: Record<string, unknown>) => svc.reverse(parseRequest(PlaceReverseRequest, p));
      expect(texts(await rev({ lat: String(h12.lat), lng: String(h12.lng) }))).toEqual(['Hauptstraße 12, 1010 Wien']);
      const wider = await rev({ lat: String(h12.lat), lng: String(h12.lng), distinct: '40' });
      expect(texts(wider)).toEqual(['Hauptstraße 12, 1010 Wien', 'Hauptstraße 12/3, 1010 Wien', 'Hauptstraße 12/3/5, 1010 Wien']);
      const getreide = doc('at_a6100011');
      expect(texts(await rev({ lat: String(getreide.lat), lng: String(getreide.lng) }))).toEqual(['Getreidegasse 9, 5020 Salzburg']);
    });
  });
}
