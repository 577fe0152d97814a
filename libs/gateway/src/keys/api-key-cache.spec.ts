import { loadConfig } from '@lookup/shared/config';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService, hashKey } from './api-key.service';

/**
 * The key cache's rules, against a key store that can be made unreachable: re-read behind the
 * request once KEY_CACHE_REFRESH_MS old, trusted for KEY_CACHE_TTL_SECONDS while the store does
 * not answer, then 503 (never 500); keys it never saw are 503 while it is away; a revocation
 * takes effect at the next re-read.
 */
class Store {
  down = false;
  reads = 0;
  readonly rows = new Map<string, ApiKeyEntity>();
  async findActiveByHash(hash: string): Promise<ApiKeyEntity | null> {
    this.reads++;
    await new Promise((r) => setImmediate(r));
    if (this.down) throw new Error('connect ECONNREFUSED');
    const e = this.rows.get(hash);
    return e && !e.revokedAt ? e : null;
  }
  add(raw: string, id: number): ApiKeyEntity {
    const e = { id, name: `k${id}`, keyHash: hashKey(raw), keyPrefix: '', monthlySearchLimit: 10, monthlyQueryLimit: 10, ratePerSecond: null, rateBurst: null, allowedOrigins: '[]', allowedIps: '[]', project: null, createdAt: new Date(), revokedAt: null } as ApiKeyEntity;
    this.rows.set(e.keyHash, e);
    return e;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('API key cache', () => {
  const make = (store: Store) => new ApiKeyService(store as unknown as ApiKeyRepository, loadConfig({}, { KEY_CACHE_REFRESH_MS: 100, KEY_CACHE_TTL_SECONDS: 1 }));

  it('serves a known key from the cache and re-reads it behind the request; a revocation takes effect at the next re-read', async () => {
    const store = new Store();
    const keys = make(store);
    const row = store.add('key-a', 1);
    expect((await keys.authenticate('key-a')).id).toBe(1);
    expect((await keys.authenticate('key-a')).id).toBe(1);
    expect(store.reads).toBe(1);
    row.revokedAt = new Date().toISOString();
    await sleep(120);
    // Older than the refresh: answered from the cache, read again behind it.
    expect((await keys.authenticate('key-a')).id).toBe(1);
    await sleep(10);
    expect(store.reads).toBe(2);
    await expect(keys.authenticate('key-a')).rejects.toMatchObject({ type: 'invalid_api_key' });
  });

  it('store away: a key confirmed within the trust window keeps working, an unseen key gets 503 + Retry-After, and after the window the known key gets 503 too', async () => {
    const store = new Store();
    const keys = make(store);
    store.add('key-b', 2);
    store.add('key-c', 3);
    expect((await keys.authenticate('key-b')).id).toBe(2);
    store.down = true;
    await sleep(150);
    expect((await keys.authenticate('key-b')).id).toBe(2);
    await expect(keys.authenticate('key-c')).rejects.toMatchObject({ type: 'service_unavailable', status: 503, retryAfter: expect.any(Number) });
    await sleep(1000);
    await expect(keys.authenticate('key-b')).rejects.toMatchObject({ type: 'service_unavailable', status: 503 });
    // Back: both work again (after the short pause a failed read makes before the store is asked again).
    store.down = false;
    await sleep(300);
    expect((await keys.authenticate('key-b')).id).toBe(2);
    expect((await keys.authenticate('key-c')).id).toBe(3);
  });
});
