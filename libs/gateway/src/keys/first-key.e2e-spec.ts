import { loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, errorOf, post, tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from './api-key.repository';
import { MANAGE_KEYS_HINT } from './key-seeder';
import { startScriptedGateway } from '../testing/scripted-gateway.testing';

/** Issue 16: no well-known key; a fresh standalone start makes one random key and prints it once. */
describe('first start (standalone, SQLite)', () => {
  const dir = tempDir();
  const config = () => loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: false });
  afterAll(() => dir.remove());

  async function start(): Promise<{ printed: string; gw: Awaited<ReturnType<typeof startScriptedGateway>> }> {
    const chunks: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true));
    try {
      const gw = await startScriptedGateway(config());
      return { printed: chunks.join(''), gw };
    } finally {
      write.mockRestore();
    }
  }

  // No HOST or PORT given: the standalone defaults, 127.0.0.1:3000, are what the line shows.
  it('makes one random key, prints it once with a curl line and the key commands, and no `demo` key exists', async () => {
    const { printed, gw } = await start();
    try {
      const key = /\b(lk_[0-9A-Za-z]{32})\b/.exec(printed)?.[1];
      expect(key).toBeDefined();
      expect(printed).toContain(`curl -s -X POST http://127.0.0.1:3000/v1/places/regions -d 'country=CZ&api_key=${key}'`);
      expect(printed.toLowerCase()).toContain(MANAGE_KEYS_HINT);
      const rows = await gw.app.get(ApiKeyRepository).list();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(rows[0].keyPrefix).toBe(key!.slice(0, 7));

      expect(errorOf(await post(gw.base, '/v1/places/regions', 'country=CZ'))).toMatchObject({ status: 400, type: 'missing' });
      expect(errorOf(await post(gw.base, '/v1/places/regions', 'country=CZ&api_key=demo'))).toMatchObject({ status: 400, type: 'invalid_api_key' });
      expect((await post(gw.base, '/v1/places/regions', `country=CZ&api_key=${key}`)).status).toBe(200);
    } finally {
      await gw.app.close();
    }
  });

  it('a later start prints no key and makes none', async () => {
    const { printed, gw } = await start();
    try {
      expect(printed).not.toMatch(/lk_/);
      expect(await gw.app.get(ApiKeyRepository).list()).toHaveLength(1);
    } finally {
      await gw.app.close();
    }
  });
});

describe('SEED_API_KEY (standalone)', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('ensures the given key, makes no other, and keeps nothing of it in plain text', async () => {
    const gw = await startScriptedGateway(loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'seed-key-1' }));
    try {
      const rows = await gw.app.get(ApiKeyRepository).list();
      expect(rows.map((r) => r.keyPrefix)).toEqual(['']);
      expect((await post(gw.base, '/v1/places/regions', 'country=CZ&api_key=seed-key-1')).status).toBe(200);
    } finally {
      await gw.app.close();
    }
  });
});

describeWith(['postgres'], 'first start (distributed, PostgreSQL)', () => {
  it('never makes a key on its own', async () => {
    const pg = await createTestSchema('firstkey');
    const config = loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, LOG_LEVEL: 'silent', DEMO_PAGE: false });
    const write = jest.spyOn(process.stdout, 'write');
    const gw = await startScriptedGateway(config);
    try {
      expect(await gw.app.get(ApiKeyRepository).list()).toHaveLength(0);
      expect(write.mock.calls.map((c) => String(c[0])).join('')).not.toMatch(/lk_/);
    } finally {
      write.mockRestore();
      await gw.app.close();
      await pg.drop();
    }
  });
});
