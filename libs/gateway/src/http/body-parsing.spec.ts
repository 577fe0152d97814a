import Fastify, { FastifyError, FastifyInstance } from 'fastify';
import { parse } from 'qs';
import { DomainError, MAX_PARAM_DEPTH, parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { MAX_PARAMETERS, parseFlat, parseNested, parseQs, parseQueryString, registerBodyParsers, registerQueryLimit } from './body-parsing';
import { requestParams } from './request-params';

/** What a parse gave: the parameters, or the refusal as the error body would carry it. */
function attempt(fn: () => unknown): unknown {
  try {
    return { made: fn() };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { refused: { type: e.type, param: e.param, message: e.message, status: e.status } };
  }
}

/** Fastify 5 skips GET bodies unless told otherwise; the Node SDK sends its key in one on the IP route. */
describe('body parsing on GET', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    registerBodyParsers(app);
    app.get('/echo/:ip', async (req) => ({ body: req.body ?? null }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('parses a JSON body sent with a GET', async () => {
    const res = await app.inject({ method: 'GET', url: '/echo/1.2.3.4', headers: { 'content-type': 'application/json' }, payload: '{"__req":3,"api_key":"K"}' });
    expect(res.json()).toEqual({ body: { __req: 3, api_key: 'K' } });
  });

  it('leaves a GET without a body as it was', async () => {
    const bare = await app.inject({ method: 'GET', url: '/echo/1.2.3.4' });
    expect([bare.statusCode, bare.json()]).toEqual([200, { body: null }]);
    const typedButEmpty = await app.inject({ method: 'GET', url: '/echo/1.2.3.4', headers: { 'content-type': 'application/json' } });
    expect(typedButEmpty.statusCode).toBe(200);
    // No parameters either way: nothing parsed, or an empty set.
    expect([null, {}]).toContainEqual(typedButEmpty.json<{ body: unknown }>().body);
    const head = await app.inject({ method: 'HEAD', url: '/echo/1.2.3.4' });
    expect(head.statusCode).toBe(200);
  });
});

/** parseQs's flat path against qs itself (with parseQs's options) on generated forms. */
describe('parseFlat', () => {
  const qsOf = (text: string) => parse(text, { depth: MAX_PARAM_DEPTH, strictDepth: true, arrayLimit: 50, parameterLimit: MAX_PARAMETERS, allowDots: false, charset: 'utf-8' });
  // Pieces of the forms the clients send, and of malformed ones.
  const PIECES = ['query', 'country', 'limit', 'api_key', 'Bludov', '12', 'CZ', '%C5%A1', '%E2%9C%93', '%', '%2', '%zz', '%25', '+', '%2B', '=', '&', '&&', '[', ']', '%5B', '%5d', '[0]', 'context', 'toString', '__proto__', 'constructor', '0', '1', '.', 'a.b', 'ř', '😀', '%F0%9F%98%80', '%ED%A0%80', ' ', ''];

  function generated(n: number): string[] {
    let s = 12345;
    const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let text = '';
      const parts = 1 + Math.floor(random() * 8);
      for (let p = 0; p < parts; p++) {
        const len = 1 + Math.floor(random() * 4);
        for (let k = 0; k < len; k++) text += PIECES[Math.floor(random() * PIECES.length)];
      }
      out.push(text);
    }
    return out;
  }

  it('makes what qs makes whenever it makes anything, and refuses what the qs path refuses', () => {
    let flat = 0;
    let refused = 0;
    for (const text of [...generated(20000), 'query=Bludov+12&country=CZ&limit=7&api_key=K', 'a=1&a=2', 'a&b=', '=x&y=1', '=%zz&y=1', `${'&'.repeat(250)}x=1`, `${'a=1&'.repeat(199)}b=2`]) {
      const got = attempt(() => parseFlat(text)) as { made?: Record<string, string>; refused?: unknown };
      if ('made' in got && got.made === undefined) continue;
      expect([text, got]).toEqual([text, attempt(() => parseNested(text))]);
      if (got.refused) {
        refused++;
        continue;
      }
      flat++;
      const made = got.made as Record<string, string>;
      // Where nothing is refused, the strict parse is qs's own.
      const expected = qsOf(text);
      expect([text, made]).toEqual([text, expected]);
      expect(Object.keys(made)).toEqual(Object.keys(expected));
    }
    expect(flat).toBeGreaterThan(2000);
    expect(refused).toBeGreaterThan(2000);
  });

  it('leaves brackets and repeated names to qs', () => {
    for (const text of ['context[0]=a', 'context%5B0%5D=a', 'a=1&a=2', `${'&'.repeat(250)}x=1`]) expect(parseFlat(text)).toBeUndefined();
    expect(parseQs('context[0]=a&context[1]=b')).toEqual({ context: ['a', 'b'] });
    expect(parseFlat('query=Bludov+12&country=CZ&q=%C5%A1&empty=&bare')).toEqual({ query: 'Bludov 12', country: 'CZ', q: 'š', empty: '', bare: '' });
  });
});

/** What qs would misread silently (a dropped name, a malformed escape) is refused naming the parameter, on both paths. */
describe('parseQs refusals', () => {
  // parseQs on the text, and on the text with a bracketed parameter added (qs's path instead of parseFlat).
  const bothPaths = (text: string) => [attempt(() => parseQs(text)), attempt(() => parseQs(`${text}&country[0]=CZ`))];
  const refusal = (type: string, param: string | null, message: RegExp) => ({ refused: { type, param, status: 400, message: expect.stringMatching(message) } });

  it('names qs drops are refused as a JSON body refuses them', () => {
    // The same keys in a JSON body, through requestParams and parseRequest (the JSON path).
    const json = (body: string, extra: Record<string, unknown> = {}) =>
      attempt(() => parseRequest(PlaceQueryRequest, requestParams({ query: {}, body: { ...(JSON.parse(body) as object), ...extra }, params: {} } as never)));
    // Form, JSON, refused; the form's parameters (made) go on to parseRequest as the JSON's do.
    const cases: [string, string, boolean][] = [
      ['query=a&__proto__=1', '{"query":"a","__proto__":"1"}', true],
      ['query=a&constructor=1', '{"query":"a","constructor":"1"}', true],
      ['query=a&prototype=1', '{"query":"a","prototype":"1"}', true],
      ['query=a&constructor[0]=1', '{"query":"a","constructor":["1"]}', true],
      ['query=a&context[__proto__]=1', '{"query":"a","context":{"__proto__":"1"}}', true],
      ['query=a&context[constructor]=1', '{"query":"a","context":{"constructor":"1"}}', true],
      ['query=a&context[prototype]=1', '{"query":"a","context":{"prototype":"1"}}', true],
      ['query=a&context[0][__proto__]=1', '{"query":"a","context":[{"__proto__":"1"}]}', true],
      // Named like a method of every object: class-transformer drops such a parameter from JSON,
      // an object holding such a key reads as no value; qs drops both from a form.
      ['query=a&toString=1', '{"query":"a","toString":"1"}', false],
      ['query=a&context[toString]=1', '{"query":"a","context":{"toString":"1"}}', false],
    ];
    for (const [form, body, refused] of cases) {
      const expected = [json(body), json(body, { country: ['CZ'] })];
      expect([body, 'refused' in (expected[0] as object)]).toEqual([body, refused]);
      const answers = bothPaths(form).map((got) => ('refused' in (got as object) ? got : attempt(() => parseRequest(PlaceQueryRequest, (got as { made: Record<string, unknown> }).made))));
      expect([form, answers]).toEqual([form, expected]);
    }
    for (const [text, param] of [['__proto__=1', '__proto__'], ['constructor=1', 'constructor'], ['constructor[a]=1', 'constructor'], ['[__proto__]=1', '__proto__'], ['%5F_proto__=1', '__proto__']]) {
      expect([text, ...bothPaths(text)]).toEqual([text, ...[0, 1].map(() => refusal('unexpected_parameter', param, /^Unexpected parameter/))]);
    }
    expect(bothPaths('context%5B__proto__%5D=1')).toEqual([0, 1].map(() => refusal('invalid_parameter', 'context', /a key named __proto__ is not accepted/)));
  });

  it('a bare name qs drops, sent empty, is an absent parameter (as `{"__proto__":""}` in JSON)', () => {
    expect(bothPaths('query=a&__proto__=&constructor')).toEqual([{ made: { query: 'a' } }, { made: { query: 'a', country: ['CZ'] } }]);
  });

  it('a malformed percent-encoding is refused naming the parameter; `+`, `%25` and UTF-8 escapes decode', () => {
    for (const [text, param] of [['query=%ZZ', 'query'], ['query=%E0%A4%A', 'query'], ['query=a%', 'query'], ['query=%ED%A0%80', 'query'], ['query=a&api_key=%zz', 'api_key'], ['context[0]=%ff', 'context']] as const) {
      expect([text, ...bothPaths(text)]).toEqual([text, ...[0, 1].map(() => refusal('invalid_parameter', param, /invalid percent-encoding/))]);
    }
    expect(bothPaths('%ZZ=1')).toEqual([0, 1].map(() => refusal('invalid_request', null, /parameter name has an invalid percent-encoding/)));
    expect(bothPaths('query=100%25+Praha+%C5%A1&q%2B=1+%2B+1')).toEqual([{ made: { query: '100% Praha š', 'q+': '1 + 1' } }, { made: { query: '100% Praha š', 'q+': '1 + 1', country: ['CZ'] } }]);
  });
});

/** The same refusals from the query string and a form body of a served request (the compat body itself: http-edges.e2e-spec.ts). */
describe('refusals through Fastify', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ routerOptions: { querystringParser: parseQueryString } });
    registerQueryLimit(app);
    registerBodyParsers(app);
    app.setErrorHandler((err: FastifyError & Partial<DomainError>, _req, reply) => reply.status(400).send({ type: err.type ?? err.code, param: err.param ?? null }));
    app.post('/echo', async (req) => ({ query: req.query, body: req.body ?? null }));
    await app.ready();
  });
  afterAll(() => app.close());

  const form = (url: string, payload = '') => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });

  it('refuses them in the query string and in a form body alike', async () => {
    for (const [params, expected] of [
      ['query=a&__proto__=1', { type: 'unexpected_parameter', param: '__proto__' }],
      ['query=a&constructor=1', { type: 'unexpected_parameter', param: 'constructor' }],
      ['query=a&context[__proto__]=1', { type: 'invalid_parameter', param: 'context' }],
      ['query=%ZZ', { type: 'invalid_parameter', param: 'query' }],
      ['query=%E0%A4%A', { type: 'invalid_parameter', param: 'query' }],
    ] as const) {
      for (const res of [await form(`/echo?${params}`), await form('/echo', params)]) expect([params, res.statusCode, res.json()]).toEqual([params, 400, expected]);
    }
  });

  it('serves what decodes, and still refuses over 200 parameters', async () => {
    const ok = await form('/echo?query=100%25+Praha', 'limit=5');
    expect([ok.statusCode, ok.json()]).toEqual([200, { query: { query: '100% Praha' }, body: { limit: '5' } }]);
    const many = Array.from({ length: 205 }, (_, i) => `p${i}=1`).join('&');
    for (const res of [await form(`/echo?${many}`), await form('/echo', many)]) expect([res.statusCode, res.json()]).toEqual([400, { type: 'TOO_MANY_PARAMETERS', param: null }]);
  });
});

describe('nested form names', () => {
  it('parses a name as deep as a parameter may nest, whole (no group kept as a literal key)', () => {
    expect(parseQs('native_text[phrases][0][jsfbt][t][*][_1]=x&a=1')).toEqual({ native_text: { phrases: [{ jsfbt: { t: { '*': { _1: 'x' } } } }] }, a: '1' });
  });

  it('refuses a deeper name naming its parameter, in a body and in the query string', () => {
    const deep = `a=1&context${'[0]'.repeat(MAX_PARAM_DEPTH + 1)}=x`;
    expect(attempt(() => parseQs(deep))).toMatchObject({ refused: { type: 'invalid_parameter', param: 'context', status: 400, message: expect.stringMatching(/deeper than 8 levels/) } });
    expect(attempt(() => parseQs(`[context]${'[0]'.repeat(MAX_PARAM_DEPTH + 1)}=x`))).toMatchObject({ refused: { type: 'invalid_parameter', param: 'context' } });
    expect(parseQueryString(deep)).not.toHaveProperty('context');
  });

  it('refuses a JSON document (fbt collection, translation file) sent as form fields, naming it; its JSON text passes', () => {
    for (const [text, param] of [
      ['native_strings[phrases][0][jsfbt][t][*]=You+have&native_strings[phrases][0][jsfbt][m][0][type]=2', 'native_strings'],
      ['native_strings[0][desc]=x', 'native_strings'],
      ['translations[fb-locale]=cs_CZ&contributor=a%40b.example', 'translations'],
    ]) {
      expect([text, attempt(() => parseQs(text))]).toEqual([text, { refused: expect.objectContaining({ type: 'invalid_parameter', param, status: 400 }) }]);
    }
    expect(parseQs(`native_strings=${encodeURIComponent('{"phrases":[]}')}&x[0]=1`)).toEqual({ native_strings: '{"phrases":[]}', x: ['1'] });
  });
});
