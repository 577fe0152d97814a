import Fastify, { FastifyInstance } from 'fastify';
import { registerBodyParsers } from './body-parsing';

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
