// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');
import { errorOf, post } from '../http';

/** What a profile's e2e spec hands the shared suite. */
export interface GatewayUnderTest {
  baseUrl: string;
  port: number;
  /** A working key with default limits. */
  key: string;
  createKey(input: { name: string; monthlySearchLimit?: number; allowedOrigins?: string[]; allowedIps?: string[]; ratePerSecond?: number }): Promise<string>;
}

type SdkClient = {
  places: Record<string, (...args: unknown[]) => Promise<unknown>>;
};

export function sdk(gw: GatewayUnderTest, key?: string): SdkClient {
  return new Swiftyper(key, { host: '127.0.0.1', port: gw.port, protocol: 'http' }) as SdkClient;
}

async function sdkError(p: Promise<unknown>): Promise<{ type: string; rawType: string; statusCode: number; param: string | null; headers: Record<string, string> }> {
  try {
    await p;
  } catch (err) {
    return err as never;
  }
  throw new Error('expected the SDK call to fail');
}

const MUNICIPALITY_FIELDS = ['country', 'county', 'formatted_country', 'highlight', 'latlng', 'municipality', 'object', 'place_id', 'region'];
const ENTRY_FIELDS = ['country', 'formatted_country', 'name', 'object', 'place_id'];

/**
 * The HTTP behaviour both profiles must show, through the official Node client where it
 * has a method and raw HTTP where the point is the bytes. The sample data are the bundled
 * fixtures (CZ: Zlínský and Olomoucký/Moravskoslezský; SK: Register adries batch).
 */
export function gatewayContractSuite(get: () => GatewayUnderTest): void {
  describe('catalogues through the official Node client', () => {
    it('lists CZ regions whole, sorted, with the catalogue fields', async () => {
      const regions = (await sdk(get(), get().key).places.regions({ country: 'CZ' })) as Array<Record<string, unknown>>;
      expect(regions.length).toBeGreaterThanOrEqual(2);
      for (const r of regions) {
        expect(Object.keys(r).sort()).toEqual(ENTRY_FIELDS);
        expect(r['object']).toBe('region');
        expect(r['country']).toBe('CZ');
        expect(r['place_id']).toMatch(/^cz_/);
      }
      const names = regions.map((r) => r['name'] as string);
      expect([...names].sort((a, b) => a.localeCompare(b, 'cs'))).toEqual(names);
    });

    it('lists SK counties with the catalogue fields', async () => {
      const counties = (await sdk(get(), get().key).places.counties({ country: 'sk' })) as Array<Record<string, unknown>>;
      expect(counties.length).toBeGreaterThan(0);
      for (const c of counties) {
        expect(Object.keys(c).sort()).toEqual(ENTRY_FIELDS);
        expect(c['object']).toBe('county');
        expect(c['place_id']).toMatch(/^sk_/);
      }
    });

    it('lists municipalities as Place objects of kind municipality with latlng', async () => {
      for (const country of ['CZ', 'SK']) {
        const list = (await sdk(get(), get().key).places.municipalities({ country })) as Array<Record<string, unknown>>;
        expect(list.length).toBeGreaterThan(2);
        for (const m of list) {
          expect(Object.keys(m).sort()).toEqual(MUNICIPALITY_FIELDS);
          expect(m['object']).toBe('municipality');
          expect(m['highlight']).toBe(m['municipality']);
        }
        const located = list.filter((m) => m['latlng'] !== null);
        expect(located.length).toBeGreaterThan(0);
        for (const m of located) {
          const ll = m['latlng'] as { lat: number; lng: number };
          expect(ll.lat).toBeGreaterThan(47);
          expect(ll.lat).toBeLessThan(51.2);
          expect(ll.lng).toBeGreaterThan(12);
          expect(ll.lng).toBeLessThan(22.6);
        }
      }
    });

    it('returns one place by id, and 404 invalid_request for an unknown id', async () => {
      const list = (await sdk(get(), get().key).places.municipalities({ country: 'CZ' })) as Array<Record<string, unknown>>;
      const one = (await sdk(get(), get().key).places.detail(list[0]['place_id'] as string)) as Record<string, unknown>;
      expect(one).toEqual(list[0]);
      // Ours unknown, and one shaped as the hosted service's ids are (mixed case, base64url), kept by a user who moved here.
      for (const id of ['cz_m999999999', 'sk_WbilvhDEDokFTWk0FbNjeQ', 'cz_Ab-c_D']) {
        const err = await sdkError(sdk(get(), get().key).places.detail(id));
        expect([id, err.type, err.statusCode, err.param]).toEqual([id, 'SwiftyperInvalidRequestError', 404, 'place_id']);
      }
    });
  });

  describe('error classes of the official Node client', () => {
    it('missing key', async () => {
      const err = await sdkError(sdk(get()).places.regions({ country: 'CZ' }));
      expect([err.type, err.statusCode, err.param]).toEqual(['SwiftyperMissingError', 400, 'api_key']);
    });

    it('invalid key', async () => {
      const err = await sdkError(sdk(get(), 'not-a-key').places.regions({ country: 'CZ' }));
      expect([err.type, err.statusCode]).toEqual(['SwiftyperInvalidApiKeyError', 400]);
    });

    it('restricted key (origin, then IP)', async () => {
      const byOrigin = await get().createKey({ name: 'origin-bound', allowedOrigins: ['https://shop.example'] });
      const err = await sdkError(sdk(get(), byOrigin).places.regions({ country: 'CZ' }));
      expect([err.type, err.statusCode]).toEqual(['SwiftyperRestrictedError', 400]);
      const ok = await post(get().baseUrl, '/v1/places/regions', { country: 'CZ', api_key: byOrigin }, { headers: { origin: 'https://shop.example' } });
      expect(ok.status).toBe(200);
      const byIp = await get().createKey({ name: 'ip-bound', allowedIps: ['10.1.2.0/24'] });
      const err2 = await sdkError(sdk(get(), byIp).places.regions({ country: 'CZ' }));
      expect(err2.type).toBe('SwiftyperRestrictedError');
      const loopback = await get().createKey({ name: 'loopback', allowedIps: ['127.0.0.0/8', '::1'] });
      expect(await sdk(get(), loopback).places.regions({ country: 'CZ' })).toBeInstanceOf(Array);
    });

    it('quota spent, with Retry-After; catalogues are not counted', async () => {
      const key = await get().createKey({ name: 'one-search', monthlySearchLimit: 1 });
      const list = (await sdk(get(), key).places.regions({ country: 'CZ' })) as Array<{ place_id: string }>;
      await sdk(get(), key).places.regions({ country: 'CZ' });
      await sdk(get(), key).places.detail(list[0].place_id);
      const err = await sdkError(sdk(get(), key).places.detail(list[0].place_id));
      expect([err.type, err.statusCode]).toEqual(['SwiftyperQuotaError', 400]);
      expect(Number(err.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('unexpected parameter', async () => {
      const err = await sdkError(sdk(get(), get().key).places.regions({ country: 'CZ', colour: 'red' }));
      expect([err.type, err.statusCode, err.param]).toEqual(['SwiftyperUnexpectedParameterError', 400, 'colour']);
    });
  });

  describe('bad input never yields a 500', () => {
    const cases: Array<[string, string | Record<string, unknown> | undefined, { type: string; param: string | null }, Record<string, string>?]> = [
      ['missing country', { api_key: 'K' }, { type: 'missing_parameter', param: 'country' }],
      ['empty country', 'api_key=K&country=', { type: 'missing_parameter', param: 'country' }],
      ['unknown country', { api_key: 'K', country: 'DE' }, { type: 'invalid_parameter', param: 'country' }],
      ['country as a list of two', 'api_key=K&country[0]=CZ&country[1]=SK', { type: 'invalid_parameter', param: 'country' }],
      ['country as object', 'api_key=K&country[a]=CZ', { type: 'invalid_parameter', param: 'country' }],
      ['country as number (JSON)', { api_key: 'K', country: 42 }, { type: 'invalid_parameter', param: 'country' }],
      ['oversize value', { api_key: 'K', country: 'C'.repeat(100000) }, { type: 'invalid_parameter', param: 'country' }],
      ['unknown parameter', 'api_key=K&country=CZ&__req=3&x=1', { type: 'unexpected_parameter', param: 'x' }],
      ['malformed JSON', '{"api_key": "K", ', { type: 'invalid_request', param: null }, { 'content-type': 'application/json' }],
      ['JSON array body', [] as unknown as Record<string, unknown>, { type: 'missing', param: 'api_key' }],
      ['no key at all', { country: 'CZ' }, { type: 'missing', param: 'api_key' }],
      ['key of the wrong type', { api_key: { a: 1 }, country: 'CZ' }, { type: 'missing', param: 'api_key' }],
      ['absurdly long key', { api_key: 'k'.repeat(5000), country: 'CZ' }, { type: 'invalid_api_key', param: 'api_key' }],
      ['revoked-looking key', { api_key: 'lk_nothing', country: 'CZ' }, { type: 'invalid_api_key', param: 'api_key' }],
    ];
    // A rest parameter: with a fixed arity above a row's length Jest would pass `done`.
    it.each(cases)('%s', async (...row) => {
      const [, body, expected, headers] = row;
      const key = get().key;
      const b = typeof body === 'string' ? body.replace('api_key=K', `api_key=${encodeURIComponent(key)}`).replace('"K"', JSON.stringify(key)) : body && !Array.isArray(body) && body['api_key'] === 'K' ? { ...body, api_key: key } : body;
      const r = await post(get().baseUrl, '/v1/places/regions', b, { headers, contentType: headers?.['content-type'] });
      expect(errorOf(r)).toEqual({ status: 400, type: expected.type, code: expected.type, param: expected.param });
    });

    it('a malformed place id is invalid_parameter, a body over 1 MiB is invalid_request', async () => {
      const r = await post(get().baseUrl, '/v1/places/%3Cscript%3E', { api_key: get().key });
      expect(errorOf(r)).toEqual({ status: 400, type: 'invalid_parameter', code: 'invalid_parameter', param: 'place_id' });
      const big = await post(get().baseUrl, '/v1/places/regions', `api_key=${get().key}&country=CZ&pad=${'x'.repeat(1_200_000)}`);
      expect(errorOf(big)).toMatchObject({ status: 400, type: 'invalid_request' });
    });

    it('an unknown route is a 404 in the error body', async () => {
      const r = await post(get().baseUrl, '/v1/nothing/here', { api_key: get().key });
      expect(errorOf(r)).toEqual({ status: 404, type: 'invalid_request', code: 'invalid_request', param: null });
    });

    it('a GET of a POST endpoint (a browser, a curl without -d) is a 405 saying to POST, not "Unknown endpoint."', async () => {
      for (const path of ['/v1/places/query', '/v1/places/regions', '/v1/places/cz_m585068', '/v1/utils/email/validate']) {
        const r = await fetch(`${get().baseUrl}${path}?api_key=${get().key}&query=x`, { headers: { origin: 'https://shop.example' } });
        expect({ path, status: r.status, allow: r.headers.get('allow'), body: await r.json() }).toEqual({
          path,
          status: 405,
          allow: 'POST',
          body: { error: { type: 'invalid_request', code: 'invalid_request', message: `GET is not supported on ${path}: send the request as POST.`, param: null } },
        });
        expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      }
      // A GET endpoint asked with POST says GET; a path no method serves stays a 404.
      const asPost = await post(get().baseUrl, '/v1/utils/ip/192.0.2.1', { api_key: get().key });
      expect([asPost.status, asPost.headers.get('allow'), (asPost.body as { error: { message: string } }).error.message]).toEqual([
        405,
        'GET',
        'POST is not supported on /v1/utils/ip/192.0.2.1: send the request as GET.',
      ]);
      const ip = await post(get().baseUrl, '/v1/utils/ip/192.0.2.1/more', { api_key: get().key });
      expect(errorOf(ip)).toEqual({ status: 404, type: 'invalid_request', code: 'invalid_request', param: null });
      const unknown = await fetch(`${get().baseUrl}/v1/nothing/here`);
      expect(unknown.status).toBe(404);
    });
  });

  describe('request shapes real clients send', () => {
    it('form body with __req, JSON body, query string, and both key headers', async () => {
      const { baseUrl, key } = get();
      const form = await post(baseUrl, '/v1/places/regions', `country=CZ&api_key=${key}&__req=7`);
      const json = await post(baseUrl, '/v1/places/regions', { country: 'CZ', api_key: key, __req: 1 });
      const query = await post(baseUrl, `/v1/places/regions?country=CZ&api_key=${key}`, undefined);
      const h1 = await post(baseUrl, '/v1/places/regions', 'country=CZ', { headers: { 'X-Service-API-Key': key } });
      const h2 = await post(baseUrl, '/v1/places/regions', 'country=CZ', { headers: { 'x-swiftyper-api-key': key } });
      for (const r of [form, json, query, h1, h2]) {
        expect(r.status).toBe(200);
        expect(r.body).toEqual(form.body);
      }
    });

    it('answers CORS preflights and sends CORS headers on errors too', async () => {
      const pre = await fetch(`${get().baseUrl}/v1/places/regions`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-service-api-key' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-service-api-key');
      const err = await post(get().baseUrl, '/v1/places/regions', { country: 'CZ' }, { headers: { origin: 'https://shop.example' } });
      expect(err.status).toBe(400);
      expect(err.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(err.headers.get('access-control-expose-headers')).toContain('Retry-After');
    });

    it('serves health, readiness and the OpenAPI description', async () => {
      const live = await fetch(`${get().baseUrl}/health`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${get().baseUrl}/health/ready`);
      const body = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
      expect(ready.status).toBe(200);
      expect(body.checks['database'].status).toBe('ok');
      expect(body.checks['places'].status).toBe('ok');
      const api = (await (await fetch(`${get().baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(api.paths)).toEqual(expect.arrayContaining(['/v1/places/regions', '/v1/places/counties', '/v1/places/municipalities', '/v1/places/{place_id}']));
      const page = await fetch(`${get().baseUrl}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('swagger');
    });
  });

  describe('monthly quota counting is atomic', () => {
    it('lets exactly the limit through out of 200 concurrent requests', async () => {
      const { baseUrl } = get();
      // No request rate limit: this counts the monthly quota alone.
      const key = await get().createKey({ name: 'fifty', monthlySearchLimit: 50, ratePerSecond: 0 });
      const regions = (await sdk(get(), key).places.regions({ country: 'CZ' })) as Array<{ place_id: string }>;
      const results = await Promise.all(
        Array.from({ length: 200 }, () => post(baseUrl, `/v1/places/${regions[0].place_id}`, `api_key=${key}`)),
      );
      const ok = results.filter((r) => r.status === 200).length;
      // Refused while the 50 were still in progress: rate_limit ("try again", they might be given
      // back); once they have finished: over_query_limit.
      const refused = results.filter((r) => ['over_query_limit', 'rate_limit'].includes(errorOf(r).type ?? '')).length;
      expect({ ok, refused, other: 200 - ok - refused }).toEqual({ ok: 50, refused: 150, other: 0 });
    });
  });
}
