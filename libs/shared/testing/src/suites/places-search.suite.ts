import { errorOf, post } from '../http';
import { GatewayUnderTest, sdk } from './gateway-contract.suite';

type P = Record<string, unknown>;

/**
 * Place searches over HTTP through the official Node client, on the bundled RUIAN-format
 * sample (fixtures/ruian-sample: Zlín, Otrokovice, Šumperk, Bludov). Both profiles run it.
 */
export function placesSearchHttpSuite(get: () => GatewayUnderTest): void {
  const places = () => sdk(get(), get().key).places;

  describe('place searches through the official Node client', () => {
    it('places.query finds an address with its field set, highlight and formatted address', async () => {
      const r = (await places().query({ query: 'třída Tomáše Bati 1686', country: 'CZ' })) as P[];
      expect(r[0]).toMatchObject({
        object: 'address',
        formatted_address: 'třída Tomáše Bati 1686, 760 01 Zlín',
        street: 'třída Tomáše Bati',
        street_number: '1686',
        building_number: null,
        postal_code: '760 01',
        municipality: 'Zlín',
        county: 'Zlín',
        country: 'CZ',
      });
      expect(r[0]['highlight']).toBe('<em>třída</em> <em>Tomáše</em> <em>Bati</em> <em>1686</em>, 760 01 Zlín');
      expect(r[0]['place_id']).toMatch(/^cz_/);
    });

    it('places.query reads abbreviations, no diacritics and a postal code with a space', async () => {
      const r = (await places().query({ query: 'tr. tomase bati 1686, 760 01', country: ['CZ', 'SK'] })) as P[];
      expect(r[0]['formatted_address']).toBe('třída Tomáše Bati 1686, 760 01 Zlín');
    });

    it('places.query takes context as the client sends arrays (context[0]=..), strict and preference', async () => {
      const municipalities = (await places().municipality({ query: 'Otrokovice' })) as P[];
      const otrokovice = municipalities[0]['place_id'] as string;
      const strict = (await places().query({ query: 'Kvítkovice', context: [otrokovice], contextType: 'strict', limit: '20' })) as P[];
      expect(strict.length).toBeGreaterThan(0);
      for (const p of strict) expect(p['municipality']).toBe('Otrokovice');
      const none = (await places().query({ query: 'Kvítkovice', context: [municipalities[0]['place_id'] === 'cz_m585068' ? 'cz_m523704' : 'cz_m585068'] })) as P[];
      expect(none).toEqual([]);
    });

    it('places.street, places.municipality and places.postal return their kinds', async () => {
      const streets = (await places().street({ query: 'Nádraž', limit: '5' })) as P[];
      expect(streets.map((s) => s['municipality']).sort()).toEqual(['Bludov', 'Šumperk']);
      expect(streets.every((s) => s['object'] === 'street')).toBe(true);
      const towns = (await places().municipality({ query: 'zlin' })) as P[];
      expect(towns[0]).toMatchObject({ object: 'municipality', municipality: 'Zlín', county: 'Zlín' });
      const codes = (await places().postal({ query: '760' })) as P[];
      expect(codes.map((c) => c['postal_code']).sort()).toEqual(['760 01', '760 05']);
      expect(codes[0]['object']).toBe('postal_code');
    });

    it('places.reverse finds the nearest address by lat/lng and by S-JTSK, and places.detail returns it', async () => {
      const [hit] = (await places().query({ query: 'náměstí Míru 2525 Zlín' })) as P[];
      const ll = hit['latlng'] as { lat: number; lng: number };
      const byLatLng = (await places().reverse({ lat: String(ll.lat), lng: String(ll.lng) })) as P[];
      expect(byLatLng[0]['place_id']).toBe(hit['place_id']);
      expect(byLatLng[0]['highlight']).toBe('náměstí Míru 2525, 760 01 Zlín');
      // The sample row's own S-JTSK numbers (RUIAN publishes them positive; EPSG:5514 negates them).
      for (const [x, y] of [['1165435.54', '520283.68'], ['-1165435.54', '-520283.68']]) {
        const byJtsk = (await places().reverse({ jtskX: x, jtskY: y, country: 'CZ' })) as P[];
        expect(byJtsk[0]['place_id']).toBe(hit['place_id']);
      }
      const detail = (await places().detail(hit['place_id'])) as P;
      expect(detail['formatted_address']).toBe(hit['formatted_address']);
      expect(detail['object']).toBe('address');
    });

    it('refuses bad parameters with a 400 naming the parameter', async () => {
      const fail = async (p: Promise<unknown>) => p.then(() => { throw new Error('expected an error'); }, (e: { rawType: string; param: string; statusCode: number }) => [e.statusCode, e.rawType, e.param]);
      expect(await fail(places().query({ query: 'Zlín', limit: '21' }))).toEqual([400, 'invalid_parameter', 'limit']);
      expect(await fail(places().query({ country: 'CZ' }))).toEqual([400, 'missing_parameter', 'query']);
      expect(await fail(places().query({ query: 'Zlín', country: 'CZ,XX' }))).toEqual([400, 'invalid_parameter', 'country']);
      expect(await fail(places().query({ query: 'Zlín', around_latlng: '49.2' }))).toEqual([400, 'invalid_parameter', 'around_latlng']);
      expect(await fail(places().query({ query: 'Zlín', contextType: 'loose' }))).toEqual([400, 'invalid_parameter', 'contextType']);
      expect(await fail(places().query({ query: 'Zlín', colour: 'red' }))).toEqual([400, 'unexpected_parameter', 'colour']);
      expect(await fail(places().reverse({ distinct: '10' }))).toEqual([400, 'missing_parameter', 'lat']);
      expect(await fail(places().reverse({ lat: '49.2' }))).toEqual([400, 'missing_parameter', 'lng']);
      expect(await fail(places().reverse({ jtskX: '12', jtskY: '520283.68' }))).toEqual([400, 'invalid_parameter', 'jtskX']);
    });

    it('accepts around_latlng_via_ip and the widget defaults in a form body', async () => {
      const body = `api_key=${get().key}&__req=3&query=Hlavn&country=CZ%2CSK%2CPL&contextType=preference&around_latlng_via_ip=true&limit=7`;
      const res = await post<P[]>(get().baseUrl, '/v1/places/query', body);
      expect(res.status).toBe(200);
      expect(res.body.map((p) => p['street'])).toContain('Hlavní');
      const bad = await post(get().baseUrl, '/v1/places/query', `api_key=${get().key}&query=x&around_latlng_via_ip=maybe`);
      expect(errorOf(bad)).toMatchObject({ status: 400, type: 'invalid_parameter', param: 'around_latlng_via_ip' });
    });
  });
}
