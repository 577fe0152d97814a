import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { join } from 'node:path';
import { loadConfig, projectRoot } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { KeysModule } from './keys.module';
import { runKeysCommand, UsageError } from './keys.command';
import { QuotaService } from '../quota/quota.service';
import { ipAllowed, originAllowed } from './restrictions';

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

  /** Every command line fails with its message, and the key store is as it was. */
  async function refusedWithoutWrites(cases: Array<[string, string | RegExp]>): Promise<void> {
    const repo = ctx.get(ApiKeyRepository);
    const before = await repo.list();
    for (const [argv, message] of cases) await expect(run(argv)).rejects.toThrow(message);
    expect(await repo.list()).toEqual(before);
  }

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
  it('refuses unknown options, options without a value and stray arguments, writing nothing', async () => {
    await refusedWithoutWrites([
      ['create --name typo --orgin https://shop.example', /unknown option --orgin/],
      ['create --name typo --origin', '--origin needs a value'],
      ['create --name typo --origin --ip 10.0.0.1', '--origin needs a value'],
      ['create --name typo --name other', '--name given more than once'],
      ['create --name= --ip 10.0.0.1', '--name needs a value'],
      ['create --name typo -n 1', 'unknown option -n'],
      ['list --all', 'unknown option --all'],
      ['limits 1 --month 2026-01', 'unknown option --month'],
    ]);
    await expect(run('create --name typo --orgin https://shop.example')).rejects.toBeInstanceOf(UsageError);
  });

  it('reads --opt=value like --opt value', async () => {
    const [created] = await run('create --name=eqform --origin=https://shop.example --search-limit=10 --ip=10.0.0.0/8 --rate=2.5');
    const [, id, , key] = created.split(/\s+/);
    const service = ctx.get(ApiKeyService);
    expect(await service.authenticate(key)).toMatchObject({ name: 'eqform', monthlySearchLimit: 10, ratePerSecond: 2.5, allowedOrigins: ['https://shop.example'], allowedIps: ['10.0.0.0/8'] });
    await run(`limits ${id} --burst=7 --rate=default`);
    service.forgetCache();
    expect(await service.authenticate(key)).toMatchObject({ rateBurst: 7, ratePerSecond: 100 });
  });

  it('restrict with a typo or a stray argument leaves the restrictions as they were', async () => {
    const [created] = await run('create --name kept --ip 127.0.0.1 --origin https://shop.example');
    const [, id] = created.split(/\s+/);
    const repo = ctx.get(ApiKeyRepository);
    await expect(run(`restrict ${id} --ips 127.0.0.1`)).rejects.toThrow(/keys restrict: unknown option --ips/);
    await expect(run(`restrict ${id} 127.0.0.1`)).rejects.toThrow('unexpected argument 127.0.0.1');
    await expect(run(`restrict ${id} --ip 127.0.0.1 --ip 10.0.0.0/33`)).rejects.toThrow('--ip 10.0.0.0/33');
    expect(await repo.findById(Number(id))).toMatchObject({ allowedIps: '["127.0.0.1"]', allowedOrigins: '["https://shop.example"]' });
  });

  it('refuses IPs, CIDR blocks and origins the gateway could never match, naming option and value', async () => {
    await refusedWithoutWrites([
      ['create --name bad --ip not-an-ip', '--ip not-an-ip: not an IP address'],
      ['create --name bad --ip 10.0.0.0/33', '--ip 10.0.0.0/33: the prefix length must be 0-32'],
      ['create --name bad --ip 2001:db8::/129', '--ip 2001:db8::/129: the prefix length must be 0-128'],
      ['create --name bad --ip 10.0.0.0/x', '--ip 10.0.0.0/x'],
      ['create --name bad --ip 999.1.1.1', '--ip 999.1.1.1'],
      ['create --name bad --origin shop.example', '--origin shop.example: give scheme://host[:port]'],
      ['create --name bad --origin https://shop.example/app', '--origin https://shop.example/app: an origin has no path'],
      ['create --name bad --origin ftp://shop.example', '--origin ftp://shop.example: only http and https'],
      ['create --name bad --origin *.', '--origin *.'],
      ['restrict 1 --origin shop.example', '--origin shop.example'],
    ]);
  });

  it('stores restrictions in the form the gateway compares', async () => {
    const [created] = await run(
      'create --name norm --origin HTTPS://Shop.Example:443/ --origin http://127.0.0.1:3000 --origin *.Example.com --ip ::FFFF:127.0.0.1 --ip 2001:0DB8:0::1 --ip 2001:db8::/032',
    );
    const [, , , key] = created.split(/\s+/);
    const auth = await ctx.get(ApiKeyService).authenticate(key);
    expect(auth.allowedOrigins).toEqual(['https://shop.example', 'http://127.0.0.1:3000', '*.example.com']);
    expect(auth.allowedIps).toEqual(['127.0.0.1', '2001:db8::1', '2001:db8::/32']);
    expect(originAllowed(auth.allowedOrigins, 'https://shop.example')).toBe(true);
    expect(ipAllowed(auth.allowedIps, '2001:db8::1')).toBe(true);
    expect(ipAllowed(auth.allowedIps, '::ffff:127.0.0.1')).toBe(true);
  });

  it('lookup keys --help lists every option the command accepts and where the store must be', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { COMMANDS } = require(join(projectRoot(), 'tools/lookup/commands.js')) as { COMMANDS: Record<string, { help: string }> };
    const help = COMMANDS['keys'].help;
    for (const opt of ['--name', '--search-limit', '--query-limit', '--rate', '--burst', '--origin', '--ip', '--project', '--month', 'PER_SECOND|default', 'N|default', '--opt=value']) {
      expect(help).toContain(opt);
    }
    for (const env of ['DATA_DIR', 'SQLITE_PATH', 'DATABASE_URL']) expect(help).toContain(env);
  });
});
