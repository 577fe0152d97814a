import { Agent, request } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@lookup/shared/config';
import { ApiKeyService } from '@lookup/gateway';
import { GatewayUnderTest, gatewayContractSuite, tempDir } from '@lookup/shared/testing';
import { PLACES_SEARCH_THREADS, SearchThreads } from '@lookup/places';
import { createStandaloneApp } from './standalone';

/** Standalone profile: gateway -> in-process bus -> places -> SQLite, sample data imported at start. */
describe('standalone profile over HTTP', () => {
  const dir = tempDir();
  let app: NestFastifyApplication;
  const gw = {} as GatewayUnderTest;

  beforeAll(async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: 'standalone-test-key' });
    app = await createStandaloneApp(config);
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const keys = app.get(ApiKeyService);
    Object.assign(gw, {
      baseUrl: `http://127.0.0.1:${port}`,
      port,
      key: 'standalone-test-key',
      createKey: async (input: Parameters<GatewayUnderTest['createKey']>[0]) => (await keys.create(input)).key,
    });
  });

  afterAll(async () => {
    await app?.close();
    dir.remove();
  });

  it('starts the search threads with the app, so no user waits for them on the first search', () => {
    const threads = app.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false });
    expect(threads?.running).toBe(loadConfig({}, {}).SEARCH_THREADS);
  });

  it('runs the searches of a lone kept-alive client on the main thread, and those of clients taking turns on the search threads', async () => {
    const threads = app.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false }) as SearchThreads;
    // A key of its own: the contract suite below counts the shared key's searches.
    const key = await gw.createKey({ name: 'inline-searches', monthlySearchLimit: 10_000 });
    const search = (agent: Agent) =>
      new Promise<number>((resolve, reject) => {
        const body = new URLSearchParams({ api_key: key, query: 'Lihovarská', country: 'CZ' }).toString();
        const req = request(
          { host: '127.0.0.1', port: gw.port, method: 'POST', path: '/v1/places/query', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end(body);
      });
    const one = new Agent({ keepAlive: true, maxSockets: 1 });
    const other = new Agent({ keepAlive: true, maxSockets: 1 });
    const sent = jest.spyOn(threads, 'runJson');
    try {
      // Until searches have shown what they cost (the first ones open the file and warm the code),
      // they go to the threads, now and then also after one ran here: wait for five in a row here.
      let calls = 0;
      let inARow = 0;
      for (let i = 0; i < 1000 && inARow < 5; i++) {
        expect(await search(one)).toBe(200);
        inARow = sent.mock.calls.length === calls ? inARow + 1 : 0;
        calls = sent.mock.calls.length;
      }
      expect(inARow).toBe(5);
      // Two clients taking turns: the connection changes with every request, every search goes to a thread.
      for (let i = 0; i < 10; i++) expect(await search(i % 2 ? one : other)).toBe(200);
      expect(sent.mock.calls.length).toBe(calls + 10);
    } finally {
      sent.mockRestore();
      one.destroy();
      other.destroy();
    }
  });

  gatewayContractSuite(() => gw);
});
