import { hash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, ErrorTypes } from '@lookup/contracts';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { originAllowed, ipAllowed } from './restrictions';
import { displayPrefix, generateKey } from './key-material';

export interface CreateKeyInput {
  name: string;
  key?: string;
  monthlySearchLimit?: number;
  monthlyQueryLimit?: number;
  allowedOrigins?: string[];
  allowedIps?: string[];
  project?: string | null;
  /** Null or absent: the configured default. */
  ratePerSecond?: number | null;
  rateBurst?: number | null;
}

/** The demo page's keys (see createPageKey). */
export const PAGE_KEY_NAME = 'demo page';
export interface PageKeyOptions {
  /** The page's own origins, e.g. `http://127.0.0.1:3000`; the key works from nowhere else. */
  origins: string[];
  monthlySearchLimit?: number;
  monthlyQueryLimit?: number;
  ratePerSecond?: number;
  rateBurst?: number;
}

export interface AuthenticatedKey {
  id: number;
  name: string;
  project: string | null;
  monthlySearchLimit: number;
  monthlyQueryLimit: number;
  allowedOrigins: string[];
  allowedIps: string[];
  /** Effective request rate (0: unlimited) and burst. */
  ratePerSecond: number;
  rateBurst: number;
}

/** A key lookup waits at most this long for the database. */
const KEY_LOOKUP_TIMEOUT_MS = 2000;
/** Retry-After (s) for a key that cannot be checked while the database is away. */
export const KEY_STORE_RETRY_AFTER_S = 2;
const CACHE_MAX = 10_000;
/** After a failed key read, the store is not asked again for this long. */
const STORE_RETRY_MS = 250;

interface CachedKey {
  key: AuthenticatedKey | null;
  /** When the database last confirmed it. */
  checkedAt: number;
  refreshing?: Promise<AuthenticatedKey | null>;
}

/** Every keyed request hashes its key: the one-shot `hash` takes a third of createHash's time (no Hash object). */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger('ApiKeys');
  /**
   * Keys as the database last confirmed them. A key is re-read in the background once it is
   * KEY_CACHE_REFRESH_MS old (the request that notices goes on with the cached key), so a revoked
   * key stops working about KEY_CACHE_REFRESH_MS after its revocation on every replica. While the database
   * is unreachable a key it confirmed within KEY_CACHE_TTL_SECONDS keeps working (a revocation
   * meanwhile takes effect when the database is back, or when the trust window ends); any other
   * key is refused with 503 and Retry-After.
   */
  private readonly cache = new Map<string, CachedKey>();
  private readonly trustMs: number;
  private readonly refreshMs: number;
  /** After a failed read, cached keys are not re-read (and unknown ones refused at once) until then. */
  private storeDownUntil = 0;

  constructor(
    private readonly repo: ApiKeyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.trustMs = (config.KEY_CACHE_TTL_SECONDS ?? 300) * 1000;
    this.refreshMs = config.KEY_CACHE_REFRESH_MS ?? 5000;
  }

  async create(input: CreateKeyInput): Promise<{ key: string; entity: ApiKeyEntity }> {
    const key = input.key ?? generateKey();
    const entity = await this.repo.insert({
      name: input.name,
      keyHash: hashKey(key),
      keyPrefix: displayPrefix(key, input.key === undefined),
      ratePerSecond: input.ratePerSecond ?? null,
      rateBurst: input.rateBurst ?? null,
      monthlySearchLimit: input.monthlySearchLimit ?? this.config.DEFAULT_MONTHLY_SEARCH_LIMIT,
      monthlyQueryLimit: input.monthlyQueryLimit ?? this.config.DEFAULT_MONTHLY_QUERY_LIMIT,
      allowedOrigins: JSON.stringify(input.allowedOrigins ?? []),
      allowedIps: JSON.stringify(input.allowedIps ?? []),
      project: input.project ?? null,
    });
    return { key, entity };
  }

  /** SEED_API_KEY: created once, left as it is on later starts. */
  async seed(key: string): Promise<void> {
    if (await this.repo.findByHash(hashKey(key))) return;
    try {
      await this.create({ name: 'seed', key });
      // Nothing of a chosen key is logged, not even a prefix.
      this.logger.log('Seed API key (SEED_API_KEY) created');
    } catch (err) {
      // Another replica created it at the same moment.
      if (!(await this.repo.findByHash(hashKey(key)))) throw err;
    }
  }

  /**
   * The demo page's keys: random, usable only from the page's own origin, with a small monthly
   * quota and rate. The page revokes the earlier page keys once per start (revokePageKeys) and
   * then makes one per origin it is loaded from, so a key copied out of the page stops working
   * at the next start.
   */
  async revokePageKeys(): Promise<void> {
    await this.repo.revokeByName(PAGE_KEY_NAME, new Date().toISOString());
    this.forgetCache();
  }

  async createPageKey(options: PageKeyOptions): Promise<string> {
    if (!options.origins.length) throw new Error('A page key needs the page origin.');
    const { key } = await this.create({
      name: PAGE_KEY_NAME,
      monthlySearchLimit: options.monthlySearchLimit ?? 2000,
      monthlyQueryLimit: options.monthlyQueryLimit ?? 100,
      allowedOrigins: options.origins,
      ratePerSecond: options.ratePerSecond ?? 5,
      rateBurst: options.rateBurst ?? 20,
    });
    this.forgetCache();
    return key;
  }

  async authenticate(rawKey: string): Promise<AuthenticatedKey> {
    const hash = hashKey(rawKey);
    const now = Date.now();
    const hit = this.cache.get(hash);
    let key: AuthenticatedKey | null;
    if (hit && now - hit.checkedAt < this.refreshMs) {
      key = hit.key;
    } else if (hit?.key && now - hit.checkedAt < Math.max(this.trustMs, this.refreshMs)) {
      // Known and trusted: answer now, re-read behind the request.
      key = hit.key;
      if (now >= this.storeDownUntil) this.refresh(hash, hit).catch(() => undefined);
    } else {
      try {
        if (now < this.storeDownUntil) throw new Error('key store unreachable');
        key = await this.refresh(hash, hit);
      } catch {
        throw new DomainError(ErrorTypes.serviceUnavailable, 'The key store is unreachable; try again shortly.', null, 503, KEY_STORE_RETRY_AFTER_S);
      }
    }
    if (!key) throw new DomainError(ErrorTypes.invalidApiKey, 'The API key is not valid.', 'api_key');
    return key;
  }

  /** One database read per key at a time; a failure leaves the cached entry as it was. */
  private refresh(hash: string, hit: CachedKey | undefined): Promise<AuthenticatedKey | null> {
    if (hit?.refreshing) return hit.refreshing;
    const reading = withTimeout(this.repo.findActiveByHash(hash), KEY_LOOKUP_TIMEOUT_MS).then((entity) => {
      const key = entity ? toAuthenticated(entity, this.config) : null;
      this.cache.delete(hash);
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, { key, checkedAt: Date.now() });
      return key;
    });
    reading.catch(() => (this.storeDownUntil = Date.now() + STORE_RETRY_MS));
    if (hit) {
      hit.refreshing = reading;
      reading.catch(() => undefined).finally(() => (hit.refreshing = undefined));
    }
    return reading;
  }

  /** Keys this replica may serve without the database (confirmed within KEY_CACHE_TTL_SECONDS): readiness while the database is away. */
  trustedKeys(now = Date.now()): number {
    let n = 0;
    for (const e of this.cache.values()) if (e.key && now - e.checkedAt < this.trustMs) n++;
    return n;
  }

  assertAllowed(key: AuthenticatedKey, origin: string | undefined, ip: string): void {
    if (!originAllowed(key.allowedOrigins, origin)) {
      throw new DomainError(ErrorTypes.restricted, `This API key may not be used from origin ${origin ?? '(none)'}.`, 'api_key');
    }
    if (!ipAllowed(key.allowedIps, ip)) {
      throw new DomainError(ErrorTypes.restricted, `This API key may not be used from address ${ip}.`, 'api_key');
    }
  }

  forgetCache(): void {
    this.cache.clear();
  }
}

function toAuthenticated(e: ApiKeyEntity, config: AppConfig): AuthenticatedKey {
  return {
    id: e.id,
    name: e.name,
    project: e.project,
    monthlySearchLimit: e.monthlySearchLimit,
    monthlyQueryLimit: e.monthlyQueryLimit,
    allowedOrigins: JSON.parse(e.allowedOrigins) as string[],
    allowedIps: JSON.parse(e.allowedIps) as string[],
    ratePerSecond: e.ratePerSecond ?? config.RATE_LIMIT_PER_SECOND,
    rateBurst: e.rateBurst ?? config.RATE_LIMIT_BURST,
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the key store within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
