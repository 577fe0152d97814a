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

  it('starts the search threads with the app and serves once they have loaded, so no user waits for them on the first search', () => {
    const threads = app.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false });
    expect(threads?.running).toBe(loadConfig({}, {}).SEARCH_THREADS);
    const each = (threads as unknown as { threads: Array<{ isLoaded: boolean }> }).threads;
    expect(each.map((t) => t.isLoaded)).toEqual(each.map(() => true));
  });

  /** The inline-search tests' own key: the contract suite below counts the shared key's searches. */
  let inlineKey: Promise<string> | undefined;
  const searchRequest = async (agent: Agent | undefined, onResponse: (status: number) => void) => {
    inlineKey ??= gw.createKey({ name: 'inline-searches', monthlySearchLimit: 10_000 });
    const body = new URLSearchParams({ api_key: await inlineKey, query: 'Lihovarská', country: 'CZ' }).toString();
    const req = request(
      { host: '127.0.0.1', port: gw.port, method: 'POST', path: '/v1/places/query', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => onResponse(res.statusCode ?? 0));
      },
    );
    req.end(body);
    return req;
  };
  const search = (agent: Agent) =>
    new Promise<number>((resolve, reject) => {
      void searchRequest(agent, resolve).then((req) => {
        req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
        req.on('error', reject);
      }, reject);
    });
  /** Searches from `agent` until five in a row ran on the main thread (runJson not called): how many that took, or -1 after `max`. */
  const untilFiveHere = async (threads: SearchThreads, agent: Agent, max = 1000): Promise<number> => {
    const sent = jest.spyOn(threads, 'runJson');
    try {
      // Until searches have shown what they cost (the first ones open the file and warm the code),
      // they go to the threads, now and then also after one ran here: wait for five in a row here.
      let calls = 0;
      let inARow = 0;
      for (let i = 0; i < max; i++) {
        expect(await search(agent)).toBe(200);
        inARow = sent.mock.calls.length === calls ? inARow + 1 : 0;
        calls = sent.mock.calls.length;
        if (inARow === 5) return i + 1;
      }
      return -1;
    } finally {
      sent.mockRestore();
    }
  };

  it('runs the searches of a lone kept-alive client on the main thread, and those of clients taking turns on the search threads', async () => {
    const threads = app.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false }) as SearchThreads;
    const one = new Agent({ keepAlive: true, maxSockets: 1 });
    const other = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await untilFiveHere(threads, one)).toBeGreaterThan(0);
      const sent = jest.spyOn(threads, 'runJson');
      const calls = sent.mock.calls.length;
      // Two clients taking turns: the connection changes with every request, every search goes to a thread.
      for (let i = 0; i < 10; i++) expect(await search(i % 2 ? one : other)).toBe(200);
      expect(sent.mock.calls.length).toBe(calls + 10);
      sent.mockRestore();
    } finally {
      one.destroy();
      other.destroy();
    }
  });

  it('runs a lone client’s searches on the main thread again after another client left before its answer', async () => {
    const threads = app.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false }) as SearchThreads;
    const one = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await untilFiveHere(threads, one)).toBeGreaterThan(0);
      // A widget drops the request of a key the user has typed past: this one's client leaves
      // while its search is on a thread (held there until it has gone), and never reads the answer.
      let entered = () => undefined as void;
      const inside = new Promise<void>((r) => (entered = r));
      let release = () => undefined as void;
      const held = new Promise<void>((r) => (release = r));
      const runJson = threads.runJson.bind(threads);
      const here = jest.spyOn(threads, 'runsHere').mockReturnValueOnce(false);
      const hold = jest.spyOn(threads, 'runJson').mockImplementationOnce(async (r) => {
        entered();
        await held;
        return runJson(r);
      });
      const left = new Promise<void>((resolve) => {
        void searchRequest(undefined, () => undefined).then(async (req) => {
          req.on('error', () => undefined);
          req.on('close', () => resolve());
          await inside;
          req.destroy();
        });
      });
      await left;
      release();
      here.mockRestore();
      hold.mockRestore();
      // The request that was dropped stayed counted as open once, and then no search ran here
      // again (warm, five in a row take 10-18 searches here; the key allows 100 a second).
      expect(await untilFiveHere(threads, one, 60)).toBeGreaterThan(0);
    } finally {
      one.destroy();
    }
  });

  gatewayContractSuite(() => gw);
});
