import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { RequestOptions, TransportClient } from '@lookup/shared/transport';
import { tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { ApiKeyService, AuthenticatedKey } from '../keys/api-key.service';
import { KeysModule } from '../keys/keys.module';
import { monthOf, QuotaService } from '../quota/quota.service';
import { Forwarder } from './forwarder.service';

/** A service behind the transport: answers after `delayMs`, or fails the way it is told to. */
class ScriptedService implements TransportClient {
  calls = 0;
  fail: DomainError | null = null;
  /** Whether the caller attached a handler to the last answer (Node ends the process on an unhandled rejection). */
  handled = false;
  /** The options of every call, in order. */
  options: Array<RequestOptions | undefined> = [];
  constructor(private readonly delayMs = 0) {}
  request<T>(_subject: string, payload: unknown, options?: RequestOptions): Promise<T> {
    this.calls++;
    this.options.push(options);
    this.handled = false;
    const answer = (async () => {
      await new Promise((r) => setTimeout(r, this.delayMs));
      if (this.fail) throw this.fail;
      return payload as T;
    })();
    const then = answer.then.bind(answer);
    answer.then = ((...args: Parameters<typeof then>) => {
      this.handled = true;
      return then(...args);
    }) as typeof answer.then;
    return answer;
  }
  async close(): Promise<void> {}
}

/** Metering beside the request, on a real key store (SQLite): the count stays exact. */
describe('Forwarder quota metering', () => {
  const dir = tempDir();
  let ctx: INestApplicationContext;
  let keys: ApiKeyService;
  let repo: ApiKeyRepository;

  beforeAll(async () => {
    ctx = await NestFactory.createApplicationContext(KeysModule.forRoot(loadConfig({}, { DATA_DIR: dir.path })), { logger: false });
    keys = ctx.get(ApiKeyService);
    repo = ctx.get(ApiKeyRepository);
  });
  afterAll(async () => {
    await ctx.close();
    dir.remove();
  });

  async function keyWith(limit: number): Promise<AuthenticatedKey> {
    const { key } = await keys.create({ name: 'fwd', monthlySearchLimit: limit });
    return keys.authenticate(key);
  }
  // Each QuotaService holds a lease like a gateway replica: settled before the counter is read.
  const quotas: QuotaService[] = [];
  const newQuota = () => {
    const q = new QuotaService(repo);
    quotas.push(q);
    return q;
  };
  const used = async (k: AuthenticatedKey) => {
    for (const q of quotas) await q.settleAll();
    return (await repo.usageOf(k.id, monthOf(new Date()))).find((u) => u.kind === 'search')?.count ?? 0;
  };

  it('counts exactly the answered requests out of 200 concurrent ones, and sends the rest nowhere once spent', async () => {
    const key = await keyWith(50);
    const service = new ScriptedService(5);
    const fwd = new Forwarder(service, newQuota());
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => fwd.forward('places.query', { i }, key, 'search')));
    // Refused while the 50 were still in progress: "try again" (rate_limit), or spent once they had finished.
    const refused = results.filter((r) => r.status === 'rejected' && ['rate_limit', 'over_query_limit'].includes((r.reason as DomainError).type)).length;
    expect({ ok: results.filter((r) => r.status === 'fulfilled').length, refused }).toEqual({ ok: 50, refused: 150 });
    expect(await used(key)).toBe(50);
    // Now known spent: metered first, so the service is not asked at all.
    const before = service.calls;
    await expect(fwd.forward('places.query', {}, key, 'search')).rejects.toMatchObject({ type: 'over_query_limit' });
    expect(service.calls).toBe(before);
  });

  it('meters and sends side by side: the answer does not wait for the counter and the counter not for it', async () => {
    const key = await keyWith(10);
    const service = new ScriptedService(0);
    let meteringDone = false;
    const quota = newQuota();
    const consume = quota.consume.bind(quota);
    quota.consume = async (...args) => {
      const t = await consume(...args);
      await new Promise((r) => setTimeout(r, 30));
      meteringDone = true;
      return t;
    };
    const fwd = new Forwarder(service, quota);
    const pending = fwd.forward('places.query', { q: 1 }, key, 'search');
    await new Promise((r) => setTimeout(r, 10));
    expect(service.calls).toBe(1); // sent while the counter was still being written
    expect(meteringDone).toBe(false);
    await expect(pending).resolves.toEqual({ q: 1 });
    expect(await used(key)).toBe(1);
  });

  it('gives the use back when the service fails (5xx) or refuses the parameters, not for an unknown id (404, an answer)', async () => {
    const key = await keyWith(10);
    const service = new ScriptedService(1);
    const fwd = new Forwarder(service, newQuota());
    service.fail = new DomainError('timeout', 'no answer', null, 504);
    await expect(fwd.forward('places.query', {}, key, 'search')).rejects.toMatchObject({ status: 504 });
    expect(await used(key)).toBe(0);
    // A check only the service can make (a VAT number's format), as the gateway's DTO check would have refused it: no use.
    for (const fail of [DomainError.invalidParameter('vatNumber', 'bad'), DomainError.missingParameter('query'), DomainError.unexpectedParameter('color')]) {
      service.fail = fail;
      await expect(fwd.forward('utils.vies', {}, key, 'search')).rejects.toMatchObject({ status: 400, type: fail.type });
    }
    expect(await used(key)).toBe(0);
    service.fail = new DomainError('invalid_request', 'Unknown place.', 'place_id', 404);
    await expect(fwd.forward('places.detail', {}, key, 'search')).rejects.toMatchObject({ status: 404 });
    expect(await used(key)).toBe(1);
  });

  it('a service failure that comes before the counter is written is handled at once (never unhandled), and refunded', async () => {
    const key = await keyWith(10);
    const service = new ScriptedService(0);
    const quota = newQuota();
    const consume = quota.consume.bind(quota);
    quota.consume = async (...args) => {
      await new Promise((r) => setTimeout(r, 40));
      return consume(...args);
    };
    const fwd = new Forwarder(service, quota);
    service.fail = DomainError.notFound('place_id', 'Place x');
    const notFound = fwd.forward('places.detail', {}, key, 'search');
    await new Promise((r) => setTimeout(r, 10));
    // The answer already failed and the counter is still being written: a handler must be on it.
    expect(service.handled).toBe(true);
    await expect(notFound).rejects.toMatchObject({ status: 404 });
    service.fail = new DomainError('service_unavailable', 'down', null, 503);
    await expect(fwd.forward('places.detail', {}, key, 'search')).rejects.toMatchObject({ status: 503 });
    expect(await used(key)).toBe(1); // the 404 counts (the caller asked), the 503 was given back
  });

  it('meters utility calls (query quota) before sending: a refused one never reaches the service', async () => {
    const { key: raw } = await keys.create({ name: 'fwd-q', monthlyQueryLimit: 1 });
    const key = await keys.authenticate(raw);
    const service = new ScriptedService(0);
    const fwd = new Forwarder(service, newQuota());
    await expect(fwd.forward('utils.translate', { t: 1 }, key, 'query')).resolves.toEqual({ t: 1 });
    await expect(fwd.forward('utils.translate', { t: 2 }, key, 'query')).rejects.toMatchObject({ type: 'over_query_limit' });
    expect(service.calls).toBe(1);
  });

  it('asks every transport call to pass the answer through (it goes to the HTTP body as it is), metered or not', async () => {
    const key = await keyWith(10);
    const { key: raw } = await keys.create({ name: 'fwd-pt', monthlyQueryLimit: 10 });
    const service = new ScriptedService(0);
    const fwd = new Forwarder(service, newQuota());
    await fwd.forward('places.query', { q: 1 }, key, 'search');
    await fwd.forward('utils.translate', { t: 1 }, await keys.authenticate(raw), 'query');
    await fwd.forward('places.regions', { a: 1 }, key, null);
    expect(service.options).toEqual([{ passThrough: true }, { passThrough: true }, { passThrough: true }]);
  });

  it('does not meter unmetered routes', async () => {
    const key = await keyWith(0);
    await expect(new Forwarder(new ScriptedService(), newQuota()).forward('places.regions', { a: 1 }, key, null)).resolves.toEqual({ a: 1 });
  });
});
