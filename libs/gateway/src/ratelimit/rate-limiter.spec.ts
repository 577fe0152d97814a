import { DomainError } from '@lookup/contracts';
import { LEASE_TTL_MS, RateLimiter } from './rate-limiter';
import { MemoryTokenStore, TokenStore } from './token-store';

/** Token-bucket arithmetic on a fake clock; the shared-store behaviour is in rate-limit.e2e-spec. */
describe('RateLimiter', () => {
  let now = 1_000_000;
  const clock = () => now;
  const key = (ratePerSecond: number, rateBurst: number, id = 1) => ({ id, ratePerSecond, rateBurst });

  async function attempt(limiter: RateLimiter, k: ReturnType<typeof key>): Promise<true | DomainError> {
    try {
      await limiter.take(k);
      return true;
    } catch (err) {
      return err as DomainError;
    }
  }

  it('lets a burst through, then one request per 1/rate seconds, and says when to retry', async () => {
    const limiter = new RateLimiter(new MemoryTokenStore(clock), clock);
    const k = key(2, 5);
    const first = await Promise.all(Array.from({ length: 8 }, () => attempt(limiter, k)));
    expect(first.filter((r) => r === true)).toHaveLength(5);
    const refused = first.find((r) => r !== true) as DomainError;
    expect(refused).toMatchObject({ type: 'rate_limit', status: 400, retryAfter: 1 });
    now += 500; // half a second at 2/s: one token
    expect(await attempt(limiter, k)).toBe(true);
    expect(await attempt(limiter, k)).not.toBe(true);
  });

  it('a rate of 0 is no limit; keys are limited separately', async () => {
    const limiter = new RateLimiter(new MemoryTokenStore(clock), clock);
    expect(limiter.take(key(0, 1))).toBeUndefined();
    const a = key(1, 1, 10);
    const b = key(1, 1, 11);
    expect(await attempt(limiter, a)).toBe(true);
    expect(await attempt(limiter, b)).toBe(true);
    expect(await attempt(limiter, a)).not.toBe(true);
  });

  it('spends leased tokens without asking the store, and drops them after the lease time', async () => {
    const inner = new MemoryTokenStore(clock);
    const leases: number[] = [];
    const store: TokenStore = { lease: (id, rate, burst, want) => (leases.push(want), inner.lease(id, rate, burst, want)) };
    const limiter = new RateLimiter(store, clock);
    const k = key(1000, 1000);
    for (let i = 0; i < 100; i++) expect(await attempt(limiter, k)).toBe(true);
    expect(leases).toEqual([100]); // 0.1 s of the rate at once
    const next = limiter.take(k);
    expect(next).not.toBeUndefined(); // the lease is used up: the next request asks the store
    await next;
    expect(leases).toEqual([100, 100]);
    now += LEASE_TTL_MS + 1; // the 99 tokens left of that lease are dropped
    leases.length = 0;
    await limiter.take(k);
    expect(leases).toEqual([100]);
  });

  it('a slow rate shows its Retry-After in whole seconds', async () => {
    const limiter = new RateLimiter(new MemoryTokenStore(clock), clock);
    const k = key(0.1, 1, 20);
    expect(await attempt(limiter, k)).toBe(true);
    expect(await attempt(limiter, k)).toMatchObject({ type: 'rate_limit', retryAfter: 10 });
  });
});
