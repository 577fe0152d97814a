import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '@lookup/contracts';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { ApiKeyService, AuthenticatedKey } from '../keys/api-key.service';
import { KeysModule } from '../keys/keys.module';
import { monthOf, QuotaService } from './quota.service';

/**
 * Leases and the outage journal on a real key store (SQLite), with the store made unreachable
 * on demand: lease statements fail at once, reports fail only after a while (a statement stuck
 * on a dying connection), which is when a journal being written must still bound new uses.
 */
describe('QuotaService leases and journal (SQLite)', () => {
  const dir = tempDir();
  let ctx: INestApplicationContext;
  let keys: ApiKeyService;
  let repo: ApiKeyRepository;
  let down = false;
  let leases = 0;

  beforeAll(async () => {
    ctx = await NestFactory.createApplicationContext(KeysModule.forRoot(loadConfig({}, { DATA_DIR: dir.path })), { logger: false });
    keys = ctx.get(ApiKeyService);
    repo = ctx.get(ApiKeyRepository);
    const lease = repo.leaseQuota.bind(repo);
    const report = repo.reportQuota.bind(repo);
    repo.leaseQuota = async (...a) => {
      leases++;
      if (down) throw new Error('connect ECONNREFUSED');
      return lease(...a);
    };
    repo.reportQuota = async (...a) => {
      if (down) {
        await new Promise((r) => setTimeout(r, 300));
        throw new Error('Connection terminated');
      }
      return report(...a);
    };
  });
  afterAll(async () => {
    await ctx.close();
    dir.remove();
  });
  afterEach(() => (down = false));

  const config = (o: Partial<Record<keyof AppConfig, unknown>> = {}) => loadConfig({}, { QUOTA_FLUSH_MS: 60000, ...o });
  async function keyWith(limit: number): Promise<AuthenticatedKey> {
    const { key } = await keys.create({ name: 'q', monthlySearchLimit: limit });
    return keys.authenticate(key);
  }
  const usage = async (k: AuthenticatedKey) => (await repo.usageOf(k.id, monthOf(new Date()))).find((u) => u.kind === 'search');
  const use = async (q: QuotaService, k: AuthenticatedKey) => q.settle(await q.consume(k, 'search'));
  const tryUse = async (q: QuotaService, k: AuthenticatedKey): Promise<string> => {
    try {
      await use(q, k);
      return 'ok';
    } catch (err) {
      return (err as DomainError).type;
    }
  };

  it('grants from memory between leases: 500 uses take far fewer statements, and the counter is exact once settled', async () => {
    const q = new QuotaService(repo, config());
    const k = await keyWith(100000);
    leases = 0;
    for (let i = 0; i < 5; i++) await Promise.all(Array.from({ length: 100 }, () => use(q, k)));
    expect(leases).toBeLessThan(30);
    expect((await usage(k))!.count).toBeGreaterThanOrEqual(500);
    await q.settleAll();
    expect(await usage(k)).toMatchObject({ count: 500, leased: 0 });
  });

  it('near the limit a lease is one use: two replicas never pass it, and a refusal names uses leased elsewhere as "try again"', async () => {
    const a = new QuotaService(repo, config());
    const b = new QuotaService(repo, config());
    const k = await keyWith(30);
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => tryUse(i % 2 ? a : b, k)));
    expect(results.filter((r) => r === 'ok')).toHaveLength(30);
    expect(results.filter((r) => r !== 'ok' && r !== 'rate_limit' && r !== 'over_query_limit')).toEqual([]);
    await a.settleAll();
    await b.settleAll();
    expect(await usage(k)).toMatchObject({ count: 30, leased: 0 });
    expect(await tryUse(a, k)).toBe('over_query_limit');
  });

  it('a lease held by another replica: refused as rate_limit (may come back), and usable once returned', async () => {
    // One replica expected: a lease may take half of what is left.
    const a = new QuotaService(repo, config({ QUOTA_LEASE_REPLICAS: 1 }));
    const b = new QuotaService(repo, config());
    const k = await keyWith(8);
    await Promise.all(Array.from({ length: 4 }, () => use(a, k))); // one lease of 4 (the 4 arrived together), all used
    await use(a, k); // a lease of 2 (the demand seen, half of the 4 left): one stays at hand
    expect(a.held().avail).toBe(1);
    expect(await usage(k)).toMatchObject({ count: 6, leased: 6 });
    expect([await tryUse(b, k), await tryUse(b, k), await tryUse(b, k)]).toEqual(['ok', 'ok', 'rate_limit']);
    await a.settleAll(); // a's unused use goes back
    expect([await tryUse(b, k), await tryUse(b, k)]).toEqual(['ok', 'over_query_limit']);
    await b.settleAll();
    expect(await usage(k)).toMatchObject({ count: 8, leased: 0 });
  });

  it('store away: the lease, then a journal bounded by what was left, also while a journal write is stuck; written back exactly', async () => {
    const q = new QuotaService(repo, config());
    const k = await keyWith(20);
    for (let i = 0; i < 5; i++) await use(q, k);
    down = true;
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) outcomes.push(await tryUse(q, k));
    // A flush trying to write the journal, stuck 300 ms before it fails; uses go on meanwhile.
    const flushing = q.settleAll().catch(() => 'failed');
    for (let i = 0; i < 20; i++) outcomes.push(await tryUse(q, k));
    expect(await flushing).toBe('failed');
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(15);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(Array(13).fill('over_query_limit'));
    down = false;
    await q.settleAll();
    expect(await usage(k)).toMatchObject({ count: 20, leased: 0 });
  });

  it('store away for a key never leased: one lease worth at most, then 503 with Retry-After (never more than a replica could hold)', async () => {
    const q = new QuotaService(repo, config({ QUOTA_LEASE_MAX: 3 }));
    const k = await keyWith(1000);
    down = true;
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) outcomes.push(await tryUse(q, k));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'service_unavailable', 'service_unavailable']);
    down = false;
    await q.settleAll();
    expect(await usage(k)).toMatchObject({ count: 3, leased: 0 });
  });

  it('a replica that stops without settling (a crash) loses no answered use: the counter is over by at most its unused lease', async () => {
    const q = new QuotaService(repo, config({ QUOTA_LEASE_MAX: 10 }));
    const k = await keyWith(100000);
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 25 }, () => use(q, k)));
    const held = q.held().avail;
    // No settleAll: the process is gone.
    const row = await usage(k);
    expect(row!.count).toBe(100 + held);
    expect(held).toBeLessThanOrEqual(10);
  });
});

describe('monthOf', () => {
  it('names the UTC month of each instant, also when the remembered month ends or an earlier one is asked', () => {
    const cases: Array<[string, string]> = [
      ['2026-11-30T23:59:59.999Z', '2026-11'],
      ['2026-12-01T00:00:00.000Z', '2026-12'],
      ['2026-12-31T23:59:59.999Z', '2026-12'],
      ['2027-01-01T00:00:00.000Z', '2027-01'],
      ['2026-11-15T12:00:00.000Z', '2026-11'],
      ['2024-02-29T10:00:00.000Z', '2024-02'],
      ['2024-03-01T00:00:00.000Z', '2024-03'],
      ['2024-02-29T23:59:59.999Z', '2024-02'],
    ];
    for (const [iso, month] of cases) expect([iso, monthOf(new Date(iso))]).toEqual([iso, month]);
  });
});
