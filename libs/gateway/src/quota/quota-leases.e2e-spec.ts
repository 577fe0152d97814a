import { DomainError } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, errorOf, HttpResult, post, waitFor } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { ApiKeyService } from '../keys/api-key.service';
import { monthOf, QuotaService } from './quota.service';
import { RunningGateway, startScriptedGateway } from '../testing/scripted-gateway.testing';

/**
 * Issue 19: monthly quotas leased by each gateway replica instead of a database write per
 * request. Two gateway apps share one PostgreSQL schema (two replicas); the limit must hold
 * exactly across them, and the counter must equal the uses answered once leases are settled.
 */
describeWith(['postgres'], 'quota leases across two gateway replicas (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof createTestSchema>>;
  let a: RunningGateway;
  let b: RunningGateway;
  let config: () => ReturnType<typeof loadConfig>;

  beforeAll(async () => {
    pg = await createTestSchema('qlease');
    // No per-key rate limit here: the monthly quota is what is under test.
    // Short flush and idle times, so a test can see idle leases come back by themselves.
    config = () =>
      loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, LOG_LEVEL: 'silent', DEMO_PAGE: false, RATE_LIMIT_PER_SECOND: 0, QUOTA_FLUSH_MS: 200, QUOTA_LEASE_IDLE_MS: 400 });
    a = await startScriptedGateway(config());
    b = await startScriptedGateway(config());
    a.services.delayMs = b.services.delayMs = 3;
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await pg?.drop();
  });

  const detail = (gw: RunningGateway, key: string, i: number) => post(gw.base, `/v1/places/cz_m${500000 + i}`, `api_key=${key}`);
  const usage = async (id: number) => (await a.app.get(ApiKeyRepository).usageOf(id, monthOf(new Date()))).find((u) => u.kind === 'search');
  const settle = async () => {
    await a.app.get(QuotaService).settleAll();
    await b.app.get(QuotaService).settleAll();
  };
  const tally = (rs: HttpResult[]) => {
    const out: Record<string, number> = {};
    for (const r of rs) {
      const k = r.status === 200 ? '200' : `${r.status} ${errorOf(r).type}`;
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  };

  it('limit 60, 300 concurrent requests over both replicas: exactly 60 answered, the rest refused, and the counter is 60 after settling', async () => {
    const { key, entity } = await a.app.get(ApiKeyService).create({ name: 'two', monthlySearchLimit: 60 });
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => detail(i % 2 ? a : b, key, i)));
    const t = tally(results);
    expect(t['200']).toBe(60);
    // Refused: "try again" while uses were in progress, or spent.
    expect(Object.keys(t).filter((k) => !['200', '400 rate_limit', '400 over_query_limit'].includes(k))).toEqual([]);
    expect(a.services.calls + b.services.calls).toBeGreaterThanOrEqual(60);
    // Both replicas served part of it (each leased from the same counter).
    const byReplica = [0, 1].map((r) => results.filter((x, i) => i % 2 === r && x.status === 200).length);
    expect(byReplica.every((n) => n > 0)).toBe(true);
    expect((await usage(entity.id))?.count).toBeLessThanOrEqual(60);
    await settle();
    expect(await usage(entity.id)).toMatchObject({ count: 60, leased: 0 });
    // Spent for good: over_query_limit from either replica.
    for (const gw of [a, b]) expect(errorOf(await detail(gw, key, 0))).toMatchObject({ status: 400, type: 'over_query_limit' });
  });

  it('a large limit: every request answered, leases of many uses (far fewer statements than requests), the counter exact once settled', async () => {
    const { key, entity } = await a.app.get(ApiKeyService).create({ name: 'big', monthlySearchLimit: 100000 });
    const repo = a.app.get(ApiKeyRepository);
    let leases = 0;
    for (const gw of [a, b]) {
      const r = gw.app.get(ApiKeyRepository);
      const orig = r.leaseQuota.bind(r);
      r.leaseQuota = (...args) => {
        leases++;
        return orig(...args);
      };
    }
    const results: HttpResult[] = [];
    // Waves of 40 concurrent requests, the way steady traffic arrives.
    for (let w = 0; w < 10; w++) results.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => detail(i % 2 ? a : b, key, i)))));
    expect(tally(results)).toEqual({ '200': 400 });
    expect(leases).toBeLessThan(100);
    const before = (await repo.usageOf(entity.id, monthOf(new Date()))).find((u) => u.kind === 'search');
    // Counted up front: what is leased and not yet used is in the counter too, and marked leased.
    expect(before!.count).toBeGreaterThanOrEqual(400);
    await settle();
    expect(await usage(entity.id)).toMatchObject({ count: 400, leased: 0 });
  });

  it('uses given back on a server fault are not counted, on either replica', async () => {
    const { key, entity } = await a.app.get(ApiKeyService).create({ name: 'refund', monthlySearchLimit: 1000 });
    const ok = await Promise.all(Array.from({ length: 20 }, (_, i) => detail(i % 2 ? a : b, key, i)));
    expect(tally(ok)).toEqual({ '200': 20 });
    a.services.fail = b.services.fail = new DomainError('service_unavailable', 'down', null, 503);
    try {
      const failed = await Promise.all(Array.from({ length: 20 }, (_, i) => detail(i % 2 ? a : b, key, i)));
      expect(tally(failed)).toEqual({ '503 service_unavailable': 20 });
    } finally {
      a.services.fail = b.services.fail = null;
    }
    await settle();
    expect(await usage(entity.id)).toMatchObject({ count: 20, leased: 0 });
  });

  it('without an explicit settle: idle leases come back and answered uses are reported by the periodic flush, and a replica that shuts down settles its lease', async () => {
    const { key, entity } = await a.app.get(ApiKeyService).create({ name: 'idle', monthlySearchLimit: 10000 });
    const c = await startScriptedGateway(config());
    try {
      const rs = await Promise.all(Array.from({ length: 90 }, (_, i) => detail([a, b, c][i % 3], key, i)));
      expect(tally(rs)).toEqual({ '200': 90 });
      await c.app.close(); // settles c's part on the way down
      const afterClose = await usage(entity.id);
      // a and b may still hold unused leased uses: counted, and marked as leased.
      expect(afterClose!.count - afterClose!.leased).toBeLessThanOrEqual(90);
      expect(afterClose!.count).toBeGreaterThanOrEqual(90);
      // Idle for longer than QUOTA_LEASE_IDLE_MS plus a flush: everything is back, by the timers
      // alone (nothing here settles). Polled, since a loaded machine runs those timers late.
      await waitFor('idle leases given back', async () => (await usage(entity.id))?.leased === 0, 15000, 100);
      expect(await usage(entity.id)).toMatchObject({ count: 90, leased: 0 });
    } finally {
      await c.app.close().catch(() => undefined);
    }
  });
});
