import { errorOf, post } from '../http';
import { GatewayUnderTest, sdk } from './gateway-contract.suite';

type V = { object: string; verdict: string; status: string; place: Record<string, unknown> | null; corrections: unknown[]; candidates: Record<string, unknown>[] };

/**
 * `places.validate` through the official Node client (POST, form-encoded as it sends it), on
 * the bundled RUIAN-format sample (Zlín, Otrokovice, Šumperk, Bludov). Both profiles run it.
 */
export function placesValidateHttpSuite(get: () => GatewayUnderTest): void {
  const validate = (params: Record<string, unknown>, key = get().key) => sdk(get(), key).places.validate(params) as Promise<V>;

  describe('places.validate through the official Node client', () => {
    it('answers exact with the same Place the search returns', async () => {
      const v = await validate({ query: 'Hlavní třída 1240/1', municipality: 'Šumperk', postal_code: '787 01', country: ['CZ'] });
      expect([v.object, v.verdict, v.status, v.corrections, v.candidates]).toEqual(['validation', 'exact', 'valid', [], []]);
      const [searched] = (await sdk(get(), get().key).places.query({ query: 'Hlavní třída 1240/1 Šumperk' })) as Record<string, unknown>[];
      expect(v.place).toEqual({ ...searched, highlight: expect.any(String) });
      expect(v.place).toMatchObject({ place_id: expect.stringMatching(/^cz_a/), latlng: { lat: expect.any(Number), lng: expect.any(Number) } });
    });

    it('corrects a wrong postal code, a misspelt town and a missing orientation number', async () => {
      expect(await validate({ query: 'Hlavní třída 1240/1', municipality: 'Šumperk', postal_code: '787 99' })).toMatchObject({
        verdict: 'corrected', status: 'unsure', corrections: [{ field: 'postal_code', given: '787 99', value: '787 01' }],
      });
      expect(await validate({ street: 'Hlavní třída', street_number: '1240', building_number: '1', municipality: 'Šumprek' })).toMatchObject({
        verdict: 'corrected', corrections: [{ field: 'municipality', given: 'Šumprek', value: 'Šumperk' }],
      });
      expect(await validate({ query: 'Jesenická 183, Šumperk' })).toMatchObject({
        verdict: 'corrected', place: { formatted_address: 'Jesenická 183/2, 787 01 Šumperk' }, corrections: [{ field: 'building_number', given: null, value: '2' }],
      });
    });

    it('says not_found for a number the street does not have', async () => {
      expect(await validate({ query: 'Jesenická 9999', municipality: 'Šumperk' })).toMatchObject({ verdict: 'not_found', status: 'invalid', place: null });
    });

    it('takes empty inputs as absent and answers GET with a query string the same', async () => {
      const v = await validate({ query: 'Jesenická 183/2', municipality: 'Šumperk', postal_code: '', street: '', building_number: '', country: 'CZ' });
      expect(v.verdict).toBe('exact');
      const res = await fetch(`${get().baseUrl}/v1/places/validate?query=${encodeURIComponent('Jesenická 183/2 Šumperk')}&api_key=${get().key}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as V).place).toEqual(v.place);
    });

    it('refuses bad parameters with a 400 naming the parameter', async () => {
      const fail = (p: Promise<unknown>) => p.then(() => { throw new Error('expected an error'); }, (e: { rawType: string; param: string; statusCode: number }) => [e.statusCode, e.rawType, e.param]);
      expect(await fail(validate({ country: 'CZ' }))).toEqual([400, 'missing_parameter', 'query']);
      expect(await fail(validate({ query: 'Jesenická 183', limit: '21' }))).toEqual([400, 'invalid_parameter', 'limit']);
      expect(await fail(validate({ query: 'Jesenická 183', country: 'CZ,XX' }))).toEqual([400, 'invalid_parameter', 'country']);
      expect(await fail(validate({ query: 'Jesenická 183', postal_code: 'abc' }))).toEqual([400, 'invalid_parameter', 'postal_code']);
      expect(await fail(validate({ query: 'Jesenická 183', colour: 'red' }))).toEqual([400, 'unexpected_parameter', 'colour']);
    });

    it('is described in the OpenAPI document, POST and GET', async () => {
      const api = (await (await fetch(`${get().baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
      expect(Object.keys(api.paths['/v1/places/validate'] ?? {}).sort()).toEqual(['get', 'post']);
      expect(Object.keys(api.components.schemas)).toEqual(expect.arrayContaining(['PlaceValidateRequest', 'PlaceValidation', 'AddressCorrection']));
    });

    it('counts each validation as a search', async () => {
      const key = await get().createKey({ name: 'validate-two', monthlySearchLimit: 2 });
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await post(get().baseUrl, '/v1/places/validate', `query=Jesenick%C3%A1+183%2F2&api_key=${key}`));
      expect(results.map((r) => r.status)).toEqual([200, 200, 400]);
      expect(errorOf(results[2]).type).toBe('over_query_limit');
    });
  });
}
