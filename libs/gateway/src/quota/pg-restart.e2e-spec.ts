import { loadConfig } from '@lookup/shared/config';
import { describeWith, errorOf, freePortRange, HttpResult, PostgresCluster, post } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { ApiKeyService } from '../keys/api-key.service';
import { monthOf, QuotaService } from './quota.service';
import { RunningGateway, startScriptedGateway } from '../testing/scripted-gateway.testing';

/**
 * Issue 20: a PostgreSQL restart costs no answer to a key the gateway saw recently. Keys come
 * from the gateway's cache, quota uses from its lease and then its journal, written back when
 * the database is back, so the monthly count is exact afterwards. The database is a cluster of
 * the test's own (stopped and started here), never the shared server.
 */
describeWith(['postgres'], 'PostgreSQL restart under traffic (own cluster)', () => {
  let cluster: PostgresCluster;
  let gw: RunningGateway;

  beforeAll(async () => {
    cluster = new PostgresCluster(await freePortRange(1));
    await cluster.init();
    await cluster.start();
    gw = await startScriptedGateway(
      loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: cluster.url, LOG_LEVEL: 'silent', DEMO_PAGE: false, RATE_LIMIT_PER_SECOND: 0, KEY_CACHE_TTL_SECONDS: 60, KEY_CACHE_REFRESH_MS: 300 }),
    );
    gw.services.delayMs = 2;
  }, 120_000);
  afterAll(async () => {
    await gw?.app.close();
    await cluster?.remove();
  }, 60_000);

  const detail = (key: string, i: number) => post(gw.base, `/v1/places/cz_m${500000 + (i % 1000)}`, `api_key=${key}`);
  const usage = async (id: number) => (await gw.app.get(ApiKeyRepository).usageOf(id, monthOf(new Date()))).find((u) => u.kind === 'search');
  const kinds = (rs: HttpResult[]) => {
    const out: Record<string, number> = {};
    for (const r of rs) {
      const k = r.status === 200 ? '200' : `${r.status} ${errorOf(r).type}`;
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  };

  it('traffic with known keys through a 3 s stop: 0 failed requests, unknown keys get 503 + Retry-After, and the counts are exact once it is back', async () => {
    const keys = gw.app.get(ApiKeyService);
    // With a request rate: its shared bucket is in PostgreSQL too (a bucket per replica while it is away).
    const busy = await keys.create({ name: 'busy', monthlySearchLimit: 100000, ratePerSecond: 10000, rateBurst: 20000 });
    // A small limit: during the outage only what the key had left may be answered.
    const small = await keys.create({ name: 'small', monthlySearchLimit: 40 });
    const unknown = await keys.create({ name: 'never-seen', monthlySearchLimit: 100 });
    // Key reads that failed: with a 300 ms refresh, the cached keys are re-read (and fail) during the outage.
    const repo = gw.app.get(ApiKeyRepository);
    const find = repo.findActiveByHash.bind(repo);
    let failedReads = 0;
    repo.findActiveByHash = (hash) => find(hash).catch((err: unknown) => {
      failedReads++;
      throw err;
    });
    for (let i = 0; i < 5; i++) expect((await detail(small.key, i)).status).toBe(200);

    const results: HttpResult[] = [];
    let running = true;
    let n = 0;
    const loops = Array.from({ length: 4 }, async () => {
      while (running) results.push(await detail(busy.key, n++));
    });
    await new Promise((r) => setTimeout(r, 500));

    await cluster.stop();
    const downAt = Date.now();
    const duringOutage = results.length;
    // Known key, small limit: 60 requests in two bursts (a flush between them tries to write the
    // journal), exactly the 35 uses it had left are answered.
    const smallOut = await Promise.all(Array.from({ length: 30 }, (_, i) => detail(small.key, i)));
    await new Promise((r) => setTimeout(r, 1100));
    smallOut.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) => detail(small.key, i)))));
    // A key this gateway never saw cannot be checked: 503 with Retry-After and the compat body, never 500.
    const fresh = await detail(unknown.key, 1);
    // Readiness stays honest: the database is reported down, but the replica serves the keys it trusts.
    const ready = await fetch(`${gw.base}/health/ready`, { signal: AbortSignal.timeout(10000) });
    const readyBody = (await ready.json()) as { checks: Record<string, { status: string }> };
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - downAt))));
    const servedWhileDown = results.length - duringOutage;
    await cluster.start();
    await new Promise((r) => setTimeout(r, 2500));
    running = false;
    await Promise.all(loops);

    expect(kinds(results)).toEqual({ '200': results.length });
    expect(servedWhileDown).toBeGreaterThan(20);
    expect(failedReads).toBeGreaterThan(0);
    expect(kinds(smallOut)).toMatchObject({ '200': 35 });
    expect(Object.keys(kinds(smallOut)).filter((k) => !['200', '400 over_query_limit', '400 rate_limit'].includes(k))).toEqual([]);
    expect(errorOf(fresh)).toMatchObject({ status: 503, type: 'service_unavailable' });
    expect([ready.status, readyBody.checks['database']?.status, readyBody.checks['keys']?.status]).toEqual([200, 'failed', 'ok']);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);

    // Back: the never-seen key works, and the counters are exact once the leases are settled.
    expect((await detail(unknown.key, 2)).status).toBe(200);
    await gw.app.get(QuotaService).settleAll();
    expect(await usage(busy.entity.id)).toMatchObject({ count: results.length, leased: 0 });
    expect(await usage(small.entity.id)).toMatchObject({ count: 40, leased: 0 });
    expect(await usage(unknown.entity.id)).toMatchObject({ count: 1, leased: 0 });
  }, 120_000);
});
