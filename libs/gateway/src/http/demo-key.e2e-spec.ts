import { loadConfig } from '@lookup/shared/config';
import { errorOf, post, tempDir } from '@lookup/shared/testing';
import { startScriptedGateway } from '../testing/scripted-gateway.testing';

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
});
