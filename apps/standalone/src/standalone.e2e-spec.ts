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

  gatewayContractSuite(() => gw);
});
