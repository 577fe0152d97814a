import { loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, errorOf, HttpResult, post, tempDir } from '@lookup/shared/testing';
import { ApiKeyService } from '../keys/api-key.service';
import { RunningGateway, startScriptedGateway } from '../testing/scripted-gateway.testing';

/**
 * Per-key request rate over HTTP: `400 rate_limit` with Retry-After (the PHP SDK's
 * RateLimitException), exact within a burst, in one standalone server and across two gateway
 * replicas sharing one PostgreSQL schema. The rate is slow enough (1 token / 20 s) that no
 * token is refilled while a test runs, so the expected counts are exact.
 */
const RATE = 0.05;
const BURST = 6;

function tally(results: HttpResult[]) {
  const ok = results.filter((r) => r.status === 200).length;
  const limited = results.filter((r) => errorOf(r).type === 'rate_limit' && errorOf(r).code === 'rate_limit' && r.status === 400);
  return { ok, limited: limited.length, retryAfter: [...new Set(limited.map((r) => r.headers.get('retry-after')))] };
}

const regions = (gw: RunningGateway, key: string) => post(gw.base, '/v1/places/regions', `country=CZ&api_key=${key}`);

describe('per-key rate limit (standalone)', () => {
  const dir = tempDir();
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startScriptedGateway(loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'unused-seed' }));
  });
  afterAll(async () => {
    await gw?.app.close();
    dir.remove();
  });

  it('lets exactly the burst through, refuses the rest with rate_limit and Retry-After, before any service work', async () => {
    const { key } = await gw.app.get(ApiKeyService).create({ name: 'rl', ratePerSecond: RATE, rateBurst: BURST });
    const results = await Promise.all(Array.from({ length: 20 }, () => regions(gw, key)));
    expect(tally(results)).toEqual({ ok: BURST, limited: 20 - BURST, retryAfter: ['20'] });
    expect(gw.services.calls).toBe(BURST);
  });

  it('keys without their own rate use RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST', async () => {
    const local = await startScriptedGateway(
      loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'unused-seed', RATE_LIMIT_PER_SECOND: RATE, RATE_LIMIT_BURST: 3 }),
    );
    try {
      const { key } = await local.app.get(ApiKeyService).create({ name: 'rl-default' });
      const results = await Promise.all(Array.from({ length: 8 }, () => regions(local, key)));
      expect(tally(results).ok).toBe(3);
    } finally {
      await local.app.close();
    }
  });
});

describeWith(['postgres'], 'per-key rate limit across two gateway replicas (distributed, PostgreSQL)', () => {
  let a: RunningGateway;
  let b: RunningGateway;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const pg = await createTestSchema('ratelimit');
    drop = pg.drop;
    const config = () => loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, LOG_LEVEL: 'silent', DEMO_PAGE: false });
    a = await startScriptedGateway(config());
    b = await startScriptedGateway(config());
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await drop?.();
  });

  it('the burst is shared: 40 concurrent requests split over both replicas let exactly the burst through', async () => {
    const { key } = await a.app.get(ApiKeyService).create({ name: 'rl2', ratePerSecond: RATE, rateBurst: BURST });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => regions(i % 2 ? a : b, key)));
    expect(tally(results)).toEqual({ ok: BURST, limited: 40 - BURST, retryAfter: ['20'] });
    expect(a.services.calls + b.services.calls).toBe(BURST);
  });

  it('a bigger rate is shared too: at most burst + refill over the test time', async () => {
    const { key } = await a.app.get(ApiKeyService).create({ name: 'rl3', ratePerSecond: 20, rateBurst: 30 });
    const t0 = Date.now();
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => regions(i % 2 ? a : b, key)));
    const seconds = (Date.now() - t0) / 1000;
    const { ok } = tally(results);
    expect(ok).toBeGreaterThanOrEqual(30);
    expect(ok).toBeLessThanOrEqual(30 + Math.ceil(20 * seconds));
  });
});
