import { ApiKeyRepository, Lease } from '../keys/api-key.repository';

/** Where a gateway replica leases a key's tokens from: the bucket all replicas share. */
export interface TokenStore {
  lease(keyId: number, rate: number, burst: number, want: number): Promise<Lease>;
}
export const TOKEN_STORE = Symbol('TOKEN_STORE');

/**
 * The standalone profile: one process, so the shared bucket is this process's memory. Same
 * arithmetic as the PostgreSQL statement in ApiKeyRepository.leaseTokens.
 */
export class MemoryTokenStore implements TokenStore {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async lease(keyId: number, rate: number, burst: number, want: number): Promise<Lease> {
    const t = this.now();
    const b = this.buckets.get(keyId);
    const avail = b ? Math.min(burst, b.tokens + (Math.max(0, t - b.at) / 1000) * rate) : burst;
    const granted = Math.min(want, Math.floor(avail));
    if (this.buckets.size > 100_000) this.buckets.clear();
    this.buckets.set(keyId, { tokens: avail - granted, at: b ? Math.max(b.at, t) : t });
    return { granted, left: avail - granted };
  }
}

/**
 * The distributed profile: PostgreSQL, which every gateway replica already talks to for keys and
 * quotas. While it does not answer (a restart), each replica leases from a bucket of its own
 * instead, so keys keep their rate per replica rather than failing every request.
 */
export class PostgresTokenStore implements TokenStore {
  private readonly fallback = new MemoryTokenStore();
  private downUntil = 0;

  constructor(
    private readonly repo: ApiKeyRepository,
    private readonly timeoutMs = 2000,
  ) {}

  async lease(keyId: number, rate: number, burst: number, want: number): Promise<Lease> {
    if (Date.now() < this.downUntil) return this.fallback.lease(keyId, rate, burst, want);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.repo.leaseTokens(keyId, rate, burst, want),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('token lease timed out')), this.timeoutMs))),
      ]);
    } catch {
      this.downUntil = Date.now() + 1000;
      return this.fallback.lease(keyId, rate, burst, want);
    } finally {
      clearTimeout(timer);
    }
  }
}
