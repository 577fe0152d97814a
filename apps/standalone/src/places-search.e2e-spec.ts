import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@lookup/shared/config';
import { ApiKeyService } from '@lookup/gateway';
import { GatewayUnderTest, placesSearchHttpSuite, placesValidateHttpSuite, tempDir } from '@lookup/shared/testing';
import { createStandaloneApp } from './standalone';

/** Standalone: place searches and places.validate on SQLite, the RUIAN-format sample imported at start like `npm start` does. */
describe('standalone place searches over HTTP', () => {
  const dir = tempDir();
  let app: NestFastifyApplication;
  const gw = {} as GatewayUnderTest;

  beforeAll(async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: 'standalone-search-key' });
    app = await createStandaloneApp(config);
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const keys = app.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'standalone-search-key', createKey: async (input: Parameters<GatewayUnderTest['createKey']>[0]) => (await keys.create(input)).key });
  });

  afterAll(async () => {
    await app?.close();
    dir.remove();
  });

  placesSearchHttpSuite(() => gw);
  placesValidateHttpSuite(() => gw);
});
