import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { KeysModule } from './keys.module';
import { runKeysCommand, UsageError } from './keys.command';
import { QuotaService } from '../quota/quota.service';

describe('keys CLI commands (SQLite)', () => {
  const dir = tempDir();
  let ctx: INestApplicationContext;
  let run: (argv: string) => Promise<string[]>;

  beforeAll(async () => {
    ctx = await NestFactory.createApplicationContext(KeysModule.forRoot(loadConfig({}, { DATA_DIR: dir.path })), { logger: false });
    run = async (argv) => {
      const lines: string[] = [];
      await runKeysCommand(argv.split(' ').filter(Boolean), ctx.get(ApiKeyService), ctx.get(ApiKeyRepository), { out: (l) => lines.push(l) });
      return lines;
    };
  });
  afterAll(async () => {
    await ctx.close();
    dir.remove();
  });

  it('creates a key shown once, stores only its hash, lists, limits, restricts and revokes it', async () => {
    const [created] = await run('create --name shop --search-limit 5 --rate 10 --burst 20 --origin https://shop.example --ip 10.0.0.0/8');
    const [, id, , key] = created.split(/\s+/);
    const repo = ctx.get(ApiKeyRepository);
    const rows = await repo.list();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0].keyHash).toMatch(/^[0-9a-f]{64}$/);

    const service = ctx.get(ApiKeyService);
    const auth = await service.authenticate(key);
    expect(auth).toMatchObject({ name: 'shop', monthlySearchLimit: 5, ratePerSecond: 10, rateBurst: 20, allowedOrigins: ['https://shop.example'], allowedIps: ['10.0.0.0/8'] });
    expect(key).toMatch(/^lk_[0-9A-Za-z]{32}$/);
    // Only the mark and 4 of the 32 random characters are kept in plain text.
    expect(rows[0].keyPrefix).toBe(key.slice(0, 7));

    expect((await run('list')).join('\n')).toMatch(new RegExp(`^${id}  ${key.slice(0, 7)}…  shop  search 5/month  query \\d+/month  rate 10/s burst 20`));
    await run(`limits ${id} --search-limit 9 --query-limit 3 --rate 2.5 --burst default`);
    await run(`restrict ${id}`);
    service.forgetCache();
    expect(await service.authenticate(key)).toMatchObject({ monthlySearchLimit: 9, monthlyQueryLimit: 3, ratePerSecond: 2.5, rateBurst: 200, allowedOrigins: [], allowedIps: [] });

    await run(`revoke ${id}`);
    service.forgetCache();
    await expect(service.authenticate(key)).rejects.toMatchObject({ type: 'invalid_api_key' });
  });

  it('reports usage per month and refuses bad input with a usage error', async () => {
    const [created] = await run('create --name meter --search-limit 2');
    const [, id, , key] = created.split(/\s+/);
    const service = ctx.get(ApiKeyService);
    const quota = new QuotaService(ctx.get(ApiKeyRepository));
    const k = await service.authenticate(key);
    quota.settle(await quota.consume(k, 'search'));
    quota.settle(await quota.consume(k, 'search'));
    await expect(quota.consume(k, 'search')).rejects.toMatchObject({ type: 'over_query_limit', retryAfter: expect.any(Number) });
    expect(await run(`usage ${id}`)).toEqual([expect.stringMatching(new RegExp(`^key ${id} \\d{4}-\\d{2}: search 2/2, query 0/`))]);
    expect(await run(`usage ${id} --month 2020-01`)).toEqual([`key ${id} 2020-01: search 0/2, query 0/${k.monthlyQueryLimit}`]);
    await expect(run(`usage ${id} --month 2026-13`)).rejects.toThrow('--month must be a month as YYYY-MM');
    await expect(run(`usage ${id} --month 11/2026`)).rejects.toThrow('--month must be a month as YYYY-MM');
    await expect(run('create')).rejects.toBeInstanceOf(UsageError);
    await expect(run('limits 999 --search-limit 1')).rejects.toThrow('no key with id 999');
    await expect(run('limits 1 --search-limit many')).rejects.toThrow('whole number');
    await expect(run('limits 1 --rate fast')).rejects.toThrow('--rate');
    await expect(run('limits 1 --burst 0')).rejects.toThrow('--burst');
    await expect(run('frobnicate')).rejects.toThrow('Usage:');
  });
});
