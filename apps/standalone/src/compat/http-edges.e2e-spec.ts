import { rawRequest } from '@lookup/shared/testing';
import { CompatApp, isCompatError, jsonOf, startCompatApp } from './compat-app.testing';

const KEY = 'edge-secret-key-4711';

/** Requests that fail before or beside routing still answer in the compat shape, 400, never echoing the key. */
describe('HTTP edges in the compat shape (issue 14)', () => {
  let s: CompatApp;
  beforeAll(async () => {
    s = await startCompatApp(KEY);
  });
  afterAll(() => s?.close());

  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`;
  const post = (path: string, type: string | null, body: Buffer | string, length?: number) => {
    const b = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\n${type ? `Content-Type: ${type}\r\n` : ''}X-Service-API-Key: ${KEY}\r\nContent-Length: ${length ?? b.length}\r\nConnection: close\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), b]);
  };

  async function expectCompat400(bytes: string | Buffer, message: RegExp, param: string | null = null) {
    const a = await rawRequest(s.port, bytes);
    const body = jsonOf(a.body) as { error: { message: string; param: string | null } };
    expect({ status: a.status, compat: isCompatError(body) }).toEqual({ status: 400, compat: true });
    expect(body.error.message).toMatch(message);
    expect(body.error.param).toBe(param);
    expect(a.body).not.toContain(KEY);
    return body;
  }

  it('a bad percent-encoding in the URL, without echoing the key', async () => {
    await expectCompat400(get(`/v1/places/%E0%A4%A?api_key=${KEY}`), /percent-encoding/);
  });
  it('an id over 100 characters names the id parameter', async () => {
    await expectCompat400(post(`/v1/places/cz_${'1'.repeat(120)}`, 'application/x-www-form-urlencoded', ''), /longer than 100/, 'place_id');
    await expectCompat400(post(`/v1/business/cz_${'1'.repeat(120)}`, 'application/x-www-form-urlencoded', ''), /longer than 100/, 'business_id');
  });
  it('a URL over 16 KB, readable by a browser page on another origin (the widget sees the message, not a CORS error)', async () => {
    const bytes = get(`/v1/places/regions?country=CZ&x=${'a'.repeat(17000)}`, 'Origin: https://shop.example\r\n');
    await expectCompat400(bytes, /16 KB/);
    const a = await rawRequest(s.port, bytes);
    expect(a.headers['access-control-allow-origin']).toBe('*');
  });
  it('a body shorter than its Content-Length', async () => {
    await expectCompat400(post('/v1/places/regions', 'application/x-www-form-urlencoded', 'country=CZ', 40), /Content-Length/);
  });
  it('invalid UTF-8 in a body says so', async () => {
    await expectCompat400(post('/v1/places/query', 'application/x-www-form-urlencoded', Buffer.from([0x71, 0x75, 0x65, 0x72, 0x79, 0x3d, 0xff, 0xfe])), /not valid UTF-8/);
    await expectCompat400(post('/v1/places/query', 'application/json', Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])), /not valid UTF-8/);
  });
  it('text/plain and multipart bodies are refused naming the types we read', async () => {
    await expectCompat400(post('/v1/places/regions', 'text/plain', 'country=CZ'), /application\/x-www-form-urlencoded or application\/json/);
    await expectCompat400(post('/v1/places/regions', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="country"\r\n\r\nCZ\r\n--x--\r\n'), /application\/x-www-form-urlencoded or application\/json/);
  });
  it('more than 200 parameters is refused, in the body and in the query string', async () => {
    const many = Array.from({ length: 205 }, (_, i) => `p${i}=1`).join('&');
    await expectCompat400(post('/v1/places/regions', 'application/x-www-form-urlencoded', `country=CZ&${many}`), /More than 200 parameters/);
    await expectCompat400(get(`/v1/utils/ip/1.2.3.4?${many}&api_key=${KEY}`), /More than 200 parameters/);
  });
  it('`__proto__`, `constructor` and `context[__proto__]` in a form body or the query string are refused as in a JSON body', async () => {
    const form = 'application/x-www-form-urlencoded';
    for (const [params, json, param] of [
      ['query=Praha&__proto__=1', '{"query":"Praha","__proto__":"1"}', '__proto__'],
      ['query=Praha&constructor=1', '{"query":"Praha","constructor":"1"}', 'constructor'],
      ['query=Praha&context[__proto__]=1', '{"query":"Praha","context":{"__proto__":"1"}}', 'context'],
    ]) {
      const fromJson = await expectCompat400(post('/v1/places/query', 'application/json', json), new RegExp(param), param);
      expect(await expectCompat400(post('/v1/places/query', form, params), new RegExp(param), param)).toEqual(fromJson);
      expect(await expectCompat400(post(`/v1/places/query?${params}`, form, ''), new RegExp(param), param)).toEqual(fromJson);
    }
  });
  it('a bad percent-encoding in a form body or the query string names the parameter; `+` and `%25` still decode', async () => {
    const form = 'application/x-www-form-urlencoded';
    await expectCompat400(post('/v1/places/query', form, 'query=%ZZ'), /query: the value has an invalid percent-encoding/, 'query');
    await expectCompat400(post('/v1/places/query', form, 'query=Praha&country[0]=%E0%A4%A'), /invalid percent-encoding/, 'country');
    await expectCompat400(post('/v1/places/query?query=%E0%A4%A', form, ''), /invalid percent-encoding/, 'query');
    await expectCompat400(get(`/v1/utils/ip/1.2.3.4?api_key=${KEY}&lang=%ZZ`), /invalid percent-encoding/, 'lang');
    await expectCompat400(post('/v1/places/query', form, 'query=Praha&%ZZ=1'), /parameter name has an invalid percent-encoding/);
    // With the CORS headers a parameter error from a JSON body has (the widget's page reads it).
    const cors = await rawRequest(s.port, get(`/v1/utils/ip/1.2.3.4?api_key=${KEY}&lang=%ZZ`, 'Origin: https://shop.example\r\n'));
    expect([cors.status, cors.headers['access-control-allow-origin']]).toEqual([400, 'https://shop.example']);
    for (const body of ['query=Praha+1', 'query=100%25+Praha', 'query=Praha&country[0]=CZ&__proto__=']) {
      const a = await rawRequest(s.port, post('/v1/places/query', form, body));
      expect([body, a.status, Array.isArray(jsonOf(a.body))]).toEqual([body, 200, true]);
    }
  });
  it('`query` sent as an object says it must be text', async () => {
    await expectCompat400(post('/v1/places/query', 'application/json', JSON.stringify({ query: { a: 1 } })), /must be text/, 'query');
  });
  it('JSON nested 3000 levels deep names the parameter', async () => {
    await expectCompat400(post('/v1/places/query', 'application/json', `{"query":"a","context":${'['.repeat(3000)}${']'.repeat(3000)}}`), /nests deeper/, 'context');
  });
  it('lists of non-text and lone surrogates are 400s naming the parameter, not 500s', async () => {
    const form = 'application/x-www-form-urlencoded';
    await expectCompat400(post('/v1/places/query', form, 'query=Praha&country[0]=CZ&country[1][x]=y'), /country/, 'country');
    await expectCompat400(post('/v1/business/query', form, 'query=skoda&country[0]=CZ&country[1][x]=y'), /country/, 'country');
    await expectCompat400(post('/v1/places/street', 'application/json', '{"query":"a","country":[1]}'), /country/, 'country');
    await expectCompat400(post('/v1/business/identifier', 'application/json', '{"query":"1","country":[null]}'), /country/, 'country');
    const submit = '{"translation":"a","hash":"h","locale":"cs_CZ","contributor":"a\\ud800@b.example"}';
    await expectCompat400(post('/v1/intl/translation/submit', 'application/json', submit), /lone surrogate/, 'contributor');
  });
  it('an OPTIONS without preflight headers is answered, not refused in plain text', async () => {
    const a = await rawRequest(s.port, `OPTIONS /v1/places/query HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(a.status).toBe(204);
  });
  it('a real preflight still gets its CORS answer', async () => {
    const a = await rawRequest(s.port, `OPTIONS /v1/places/query HTTP/1.1\r\nHost: x\r\nOrigin: https://shop.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`);
    expect([a.status, a.headers['access-control-allow-origin']]).toEqual([204, 'https://shop.example']);
  });
  it('the widget form with every other field empty is served', async () => {
    const body = `query=Praha&postal_code=&municipality=&street=&country[0]=CZ&limit=&contextType=&around_latlng=&around_latlng_via_ip=&__req=1`;
    const a = await rawRequest(s.port, post('/v1/places/query', 'application/x-www-form-urlencoded', body));
    expect(a.status).toBe(200);
    expect(Array.isArray(jsonOf(a.body))).toBe(true);
  });
  it('no log line carries the key', () => {
    expect(s.logs.length).toBeGreaterThan(0);
    expect(s.logs.filter((l) => l.includes(KEY))).toEqual([]);
  });
});
