import { request } from 'node:http';
import { loadConfig } from '@lookup/shared/config';
import { errorOf, post, tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { startScriptedGateway } from '../testing/scripted-gateway.testing';

/** GET / with the Host header a client chose (fetch will not send another than the URL's). */
function pageKeyAs(base: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { headers: { host } }, (res) => {
      let html = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (html += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(/name="lookup-demo-key" content="([^"]*)"/.exec(html)?.[1] ?? 'no meta') : reject(new Error(`GET / as ${host}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The demo page's keys live one start: the next start revokes them when it is ready, whether or not anyone opens the page. */
describe('demo page keys across starts', () => {
  const dir = tempDir('demo-key-');
  afterAll(() => dir.remove());
  const config = () => loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: true, SEED_API_KEY: 'seed-1' });
  const pageKey = async (base: string) => /name="lookup-demo-key" content="([^"]*)"/.exec(await (await fetch(`${base}/`)).text())?.[1] ?? '';
  const regions = (base: string, key: string) => post(base, '/v1/places/regions', `country=CZ&api_key=${key}`, { headers: { origin: base } });

  it("a key copied out of the page stops working at the next start, before the page's first load", async () => {
    const first = await startScriptedGateway(config());
    let key = '';
    try {
      key = await pageKey(first.base);
      expect(key).toMatch(/^lk_[0-9A-Za-z]{32}$/);
      expect((await regions(first.base, key)).status).toBe(200);
    } finally {
      await first.app.close();
    }
    const second = await startScriptedGateway(config());
    try {
      // Nobody has opened the page on this start.
      expect(errorOf(await regions(second.base, key))).toMatchObject({ status: 400, type: 'invalid_api_key' });
      const fresh = await pageKey(second.base);
      expect(fresh).not.toBe(key);
      expect((await regions(second.base, fresh)).status).toBe(200);
    } finally {
      await second.app.close();
    }
  });

  it('makes page keys only for loopback origins and DEMO_PAGE_ORIGINS: a Host header of the caller\'s choosing gets the page without a key', async () => {
    const gw = await startScriptedGateway(loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: true, SEED_API_KEY: 'seed-1', DEMO_PAGE_ORIGINS: 'http://lookup.example.com' }));
    try {
      const port = new URL(gw.base).port;
      const activePageKeys = async () => (await gw.app.get(ApiKeyRepository).list()).filter((k) => !k.revokedAt && k.name !== 'seed').length;
      const before = await activePageKeys();
      // Before: each of these made a key usable from that site, 8 a start, each with its quota.
      for (const host of ['evil.example', `shop.example:${port}`, '203.0.113.7', 'lookup.example.com.evil.example']) {
        expect({ host, key: await pageKeyAs(gw.base, host) }).toEqual({ host, key: '' });
      }
      expect(await activePageKeys()).toBe(before);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'lookup.example.com', 'LOOKUP.example.com']) {
        expect({ host, key: await pageKeyAs(gw.base, host) }).toEqual({ host, key: expect.stringMatching(/^lk_/) });
      }
      // The configured origin's key works from that origin only.
      const key = await pageKeyAs(gw.base, 'lookup.example.com');
      expect((await post(gw.base, '/v1/places/regions', `country=CZ&api_key=${key}`, { headers: { origin: 'http://lookup.example.com' } })).status).toBe(200);
      expect(errorOf(await post(gw.base, '/v1/places/regions', `country=CZ&api_key=${key}`, { headers: { origin: 'http://evil.example' } }))).toMatchObject({ status: 400 });
    } finally {
      await gw.app.close();
    }
  });
});
