import { DomainError, ErrorTypes } from '@lookup/contracts';
import { TokenStore } from './token-store';

/** The part of a key the limiter needs. */
export interface RateLimitedKey {
  id: number;
  ratePerSecond: number;
  rateBurst: number;
}

/** A replica leases about this much of a key's rate at once: one store round trip per lease, not per request. */
const LEASE_WINDOW_S = 0.1;
/**
 * Leased tokens not used within this time are dropped, so a replica cannot save tokens up and
 * spend them on top of a refilled bucket. Dropped tokens are lost, never given twice: the
 * limiter errs towards refusing.
 */
export const LEASE_TTL_MS = 1000;
/** After the store said "empty", refusals are answered locally for at most this long. */
const REFUSAL_MEMORY_MS = 250;

interface LocalBucket {
  tokens: number;
  expires: number;
  /** Refuse without asking the store until then; `retryAfter` seconds go with the refusal. */
  emptyUntil: number;
  retryAfter: number;
  leasing?: Promise<void>;
}

/**
 * Per-key request rate: a token bucket (rate per second, burst) shared by every gateway replica.
 * Each replica spends tokens it leased from the shared bucket; a request costs a map lookup
 * unless this replica has run out, when one lease (a single statement in PostgreSQL) serves
 * every request waiting for it. Exact across replicas up to tokens leased and not yet spent:
 * those are never handed out twice.
 */
export class RateLimiter {
  private readonly local = new Map<number, LocalBucket>();

  constructor(
    private readonly store: TokenStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when the request may go on; throws `rate_limit` (400, Retry-After) when not. Sync-fast when tokens are at hand. */
  take(key: RateLimitedKey): Promise<void> | undefined {
    if (!(key.ratePerSecond > 0)) return undefined;
    const b = this.bucket(key.id);
    if (spend(b, this.now())) return undefined;
    return this.waitForLease(key, b);
  }

  private bucket(id: number): LocalBucket {
    let b = this.local.get(id);
    if (!b) {
      if (this.local.size > 100_000) this.local.clear();
      b = { tokens: 0, expires: 0, emptyUntil: 0, retryAfter: 1 };
      this.local.set(id, b);
    }
    return b;
  }

  private async waitForLease(key: RateLimitedKey, b: LocalBucket): Promise<void> {
    for (;;) {
      const now = this.now();
      if (spend(b, now)) return;
      if (now < b.emptyUntil) throw refusal(key, b.retryAfter);
      b.leasing ??= this.lease(key, b).finally(() => (b.leasing = undefined));
      await b.leasing;
    }
  }

  private async lease(key: RateLimitedKey, b: LocalBucket): Promise<void> {
    const want = Math.max(1, Math.min(key.rateBurst, Math.ceil(key.ratePerSecond * LEASE_WINDOW_S)));
    const { granted, left } = await this.store.lease(key.id, key.ratePerSecond, key.rateBurst, want);
    const now = this.now();
    if (granted > 0) {
      b.tokens = (b.expires > now ? b.tokens : 0) + granted;
      b.expires = now + LEASE_TTL_MS;
      return;
    }
    const waitMs = ((1 - left) / key.ratePerSecond) * 1000;
    b.retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    b.emptyUntil = now + Math.min(REFUSAL_MEMORY_MS, waitMs);
    // Without this, a lease that found nothing would be retried at once by every waiter.
    if (b.emptyUntil <= now) b.emptyUntil = now + 1;
  }
}

function spend(b: LocalBucket, now: number): boolean {
  if (b.tokens >= 1 && now < b.expires) {
    b.tokens -= 1;
    return true;
  }
  return false;
}

function refusal(key: RateLimitedKey, retryAfter: number): DomainError {
  return new DomainError(
    ErrorTypes.rateLimit,
    `Too many requests with this API key: at most ${key.ratePerSecond} per second (bursts of ${key.rateBurst}). Try again in ${retryAfter} s.`,
    null,
    400,
    retryAfter,
  );
}
