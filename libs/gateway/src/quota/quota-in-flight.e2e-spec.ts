import { DomainError, ErrorTypes } from '@lookup/contracts';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, errorOf, post, tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { ApiKeyService } from '../keys/api-key.service';
import { monthOf, QuotaService } from './quota.service';
import { RunningGateway, startScriptedGateway } from '../testing/scripted-gateway.testing';

/**
 * Issue 16: with a query limit of 5 and the provider down, 20 concurrent calls gave 5 x 503 and
 * 15 x over_query_limit (Retry-After ~ a week) while usage ended at 0/5. Uses still in progress
 * must not refuse others as spent: those get rate_limit with a short Retry-After.
 */
function quotaSuite(config: () => Promise<{ config: AppConfig; cleanup: () => Promise<void> }>) {
  let gw: RunningGateway;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const c = await config();
    cleanup = c.cleanup;
    gw = await startScriptedGateway(c.config);
  });
  afterAll(async () => {
    await gw?.app.close();
    await cleanup?.();
  });

  const translate = (key: string) => post(gw.base, '/v1/utils/translator/translate', `q=ahoj&tl=en&api_key=${key}`);
  // The gateway holds a lease: settled first, the counter is the uses answered.
  const used = async (id: number) => {
    await gw.app.get(QuotaService).settleAll();
    return (await gw.app.get(ApiKeyRepository).usageOf(id, monthOf(new Date()))).find((u) => u.kind === 'query')?.count ?? 0;
  };

  it('provider down: 20 concurrent calls on a limit of 5 give 503 or "try again", never "spent", and usage stays 0/5', async () => {
    const { key, entity } = await gw.app.get(ApiKeyService).create({ name: 'q5', monthlyQueryLimit: 5 });
    gw.services.fail = new DomainError(ErrorTypes.serviceUnavailable, 'provider down', null, 503);
    gw.services.delayMs = 150;
    const results = await Promise.all(Array.from({ length: 20 }, () => translate(key)));
    const kinds = results.map((r) => `${r.status} ${errorOf(r).type}`);
    // A use given back lets a later call through to the (down) provider, so more than 5 may reach it.
    expect(kinds.filter((k) => k === '503 service_unavailable').length).toBeGreaterThanOrEqual(5);
    expect(kinds.filter((k) => k !== '503 service_unavailable' && k !== '400 rate_limit')).toEqual([]);
    expect(kinds).toContain('400 rate_limit');
    for (const r of results.filter((x) => errorOf(x).type === 'rate_limit')) expect(r.headers.get('retry-after')).toBe('1');
    expect(await used(entity.id)).toBe(0);

    // The provider is back: the whole quota is there to be used, then it is spent.
    gw.services.fail = null;
    gw.services.delayMs = 0;
    for (let i = 0; i < 5; i++) expect((await translate(key)).status).toBe(200);
    const spent = await translate(key);
    expect(errorOf(spent)).toMatchObject({ status: 400, type: 'over_query_limit' });
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await used(entity.id)).toBe(5);
  });
}

describe('quota refusals while uses are in flight (standalone, SQLite)', () => {
  quotaSuite(async () => {
    const dir = tempDir();
    return { config: loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'unused-seed' }), cleanup: async () => dir.remove() };
  });
});

describeWith(['postgres'], 'quota refusals while uses are in flight (distributed, PostgreSQL)', () => {
  quotaSuite(async () => {
    const pg = await createTestSchema('quota');
    return { config: loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, LOG_LEVEL: 'silent', DEMO_PAGE: false }), cleanup: pg.drop };
  });
});
