import Fastify, { FastifyInstance } from 'fastify';
import { parse } from 'qs';
import { MAX_PARAMETERS, parseFlat, parseQs, registerBodyParsers } from './body-parsing';

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
  const qsOf = (text: string) => parse(text, { depth: 3, arrayLimit: 50, parameterLimit: MAX_PARAMETERS, allowDots: false, charset: 'utf-8' });
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

  it('makes what qs makes whenever it makes anything', () => {
    let flat = 0;
    for (const text of [...generated(20000), 'query=Bludov+12&country=CZ&limit=7&api_key=K', 'a=1&a=2', 'a&b=', '=x&y=1', `${'&'.repeat(250)}x=1`, `${'a=1&'.repeat(199)}b=2`]) {
      const made = parseFlat(text);
      if (made === undefined) continue;
      flat++;
      const expected = qsOf(text);
      expect([text, made]).toEqual([text, expected]);
      expect(Object.keys(made)).toEqual(Object.keys(expected));
    }
    expect(flat).toBeGreaterThan(2000);
  });

  it('leaves brackets, repeated names and names qs drops to qs', () => {
    for (const text of ['context[0]=a', 'context%5B0%5D=a', 'a=1&a=2', 'toString=1', '__proto__=x', `${'&'.repeat(250)}x=1`]) expect(parseFlat(text)).toBeUndefined();
    expect(parseQs('context[0]=a&context[1]=b')).toEqual({ context: ['a', 'b'] });
    expect(parseFlat('query=Bludov+12&country=CZ&q=%C5%A1&bad=%zz&empty=&bare')).toEqual({ query: 'Bludov 12', country: 'CZ', q: 'š', bad: '%zz', empty: '', bare: '' });
  });
});
