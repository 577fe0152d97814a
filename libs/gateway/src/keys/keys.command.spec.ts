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

  it('restrict changes only the lists it names, empties one with none, all with no flags, and says what the key has now', async () => {
    const [created] = await run('create --name partial --ip 127.0.0.1 --origin https://shop.example');
    const id = Number(created.split(/\s+/)[1]);
    const repo = ctx.get(ApiKeyRepository);
    const stored = async () => {
      const k = await repo.findById(id);
      return { origins: JSON.parse(k!.allowedOrigins) as string[], ips: JSON.parse(k!.allowedIps) as string[] };
    };

    expect(await run(`restrict ${id} --ip 10.0.0.0/8 --ip 2001:db8::/32`)).toEqual([`key ${id} restrictions now: origins https://shop.example (unchanged); ips 10.0.0.0/8, 2001:db8::/32`]);
    expect(await stored()).toEqual({ origins: ['https://shop.example'], ips: ['10.0.0.0/8', '2001:db8::/32'] });

    expect(await run(`restrict ${id} --origin https://other.example`)).toEqual([`key ${id} restrictions now: origins https://other.example; ips 10.0.0.0/8, 2001:db8::/32 (unchanged)`]);
    expect(await stored()).toEqual({ origins: ['https://other.example'], ips: ['10.0.0.0/8', '2001:db8::/32'] });

    expect(await run(`restrict ${id} --ip none`)).toEqual([`key ${id} restrictions now: origins https://other.example (unchanged); ips any`]);
    expect(await stored()).toEqual({ origins: ['https://other.example'], ips: [] });

    expect(await run(`restrict ${id} --origin=none --ip 127.0.0.1`)).toEqual([`key ${id} restrictions now: origins any; ips 127.0.0.1`]);
    expect(await stored()).toEqual({ origins: [], ips: ['127.0.0.1'] });

    await refusedWithoutWrites([
      [`restrict ${id} --ip none --ip 10.0.0.1`, '--ip none empties the list; give it alone'],
      [`restrict ${id} --origin https://a.example --origin none`, '--origin none empties the list; give it alone'],
      ['create --name nothing --ip none', '--ip none: not an IP address'],
    ]);

    await run(`restrict ${id} --origin https://shop.example`);
    // The documented "remove all restrictions": no option at all.
    expect(await run(`restrict ${id}`)).toEqual([`key ${id} restrictions now: origins any; ips any`]);
    expect(await stored()).toEqual({ origins: [], ips: [] });
  });

  it('stores a CIDR block by its first address and says so', async () => {
    const lines = await run(
      'create --name block --ip 10.0.0.1/24 --ip 10.1.2.3/32 --ip 10.9.9.9/0 --ip 2001:DB8::1/32 --ip 2001:db8:0:0:ffff::1/68 --ip 2001:db8::fff7/125 --ip 2001:db8::/48',
    );
    const [, id, , key] = lines[0].split(/\s+/);
    expect(lines.slice(2)).toEqual([
      "note: --ip 10.0.0.1/24 is stored as 10.0.0.0/24 (the block's first address; the same addresses match)",
      "note: --ip 10.9.9.9/0 is stored as 0.0.0.0/0 (the block's first address; the same addresses match)",
      "note: --ip 2001:DB8::1/32 is stored as 2001:db8::/32 (the block's first address; the same addresses match)",
      "note: --ip 2001:db8:0:0:ffff::1/68 is stored as 2001:db8:0:0:f000::/68 (the block's first address; the same addresses match)",
      "note: --ip 2001:db8::fff7/125 is stored as 2001:db8::fff0/125 (the block's first address; the same addresses match)",
    ]);
    const service = ctx.get(ApiKeyService);
    const auth = await service.authenticate(key);
    expect(auth.allowedIps).toEqual(['10.0.0.0/24', '10.1.2.3/32', '0.0.0.0/0', '2001:db8::/32', '2001:db8:0:0:f000::/68', '2001:db8::fff0/125', '2001:db8::/48']);
    expect((await run('list')).find((l) => l.startsWith(`${id}  `))).toContain('ips ["10.0.0.0/24","10.1.2.3/32","0.0.0.0/0"');
    // The same addresses match as with the block as typed.
    expect(ipAllowed(['10.0.0.0/24'], '10.0.0.200')).toBe(true);
    expect(ipAllowed(['10.0.0.0/24'], '10.0.1.1')).toBe(false);
    expect(ipAllowed(['2001:db8:0:0:f000::/68'], '2001:db8:0:0:ffff::1')).toBe(true);
    expect(ipAllowed(['2001:db8:0:0:f000::/68'], '2001:db8:0:0:efff::1')).toBe(false);
    expect(ipAllowed(['2001:db8::fff0/125'], '2001:db8::fff8')).toBe(false);

    expect(await run(`restrict ${id} --ip 192.168.1.77/16`)).toEqual([
      `key ${id} restrictions now: origins any (unchanged); ips 192.168.0.0/16`,
      "note: --ip 192.168.1.77/16 is stored as 192.168.0.0/16 (the block's first address; the same addresses match)",
    ]);
  });

  it('revoking a revoked key says so, keeps the first time and succeeds (a script can run it again)', async () => {
    const [created] = await run('create --name twice');
    const id = Number(created.split(/\s+/)[1]);
    const repo = ctx.get(ApiKeyRepository);
    expect(await run(`revoke ${id}`)).toEqual([`key ${id} revoked`]);
    const first = (await repo.findById(id))!.revokedAt;
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await run(`revoke ${id}`)).toEqual([`key ${id} was already revoked (at ${first}); nothing changed`]);
    expect((await repo.findById(id))!.revokedAt).toBe(first);
  });

  it('a key id that is not a number is named as typed, not as an option', async () => {
    await refusedWithoutWrites([
      ['revoke abc', /^keys revoke: key id must be a number: abc\nUsage: npm run keys -- revoke ID/],
      ['limits 1x --rate 2', 'keys limits: key id must be a number: 1x'],
      ['restrict 2.5 --ip 10.0.0.1', 'keys restrict: key id must be a number: 2.5'],
      ['usage x', 'keys usage: key id must be a number: x'],
      ['revoke', 'keys revoke: the key id is missing'],
    ]);
    const err = (await run('revoke abc').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).not.toContain('--id');
  });

  it('an unknown command is named, with the nearest one and the list of commands', async () => {
    const firstLine = async (argv: string) => {
      const err = (await run(argv).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(UsageError);
      return err.message.split('\n')[0];
    };
    const commands = 'commands: create, list, revoke, limits, restrict, usage';
    expect(await firstLine('lsit')).toBe(`unknown keys command "lsit" (did you mean "list"?); ${commands}`);
    expect(await firstLine('revok 1')).toBe(`unknown keys command "revok" (did you mean "revoke"?); ${commands}`);
    expect(await firstLine('restirct 1 --ip 10.0.0.1')).toBe(`unknown keys command "restirct" (did you mean "restrict"?); ${commands}`);
    expect(await firstLine('frobnicate')).toBe(`unknown keys command "frobnicate"; ${commands}`);
    expect(await firstLine('ls')).toBe(`unknown keys command "ls"; ${commands}`);
    await expect(run('frobnicate')).rejects.toThrow('Usage: npm run keys -- <command>');
  });

  it('lookup keys --help lists every option the command accepts and where the store must be', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { COMMANDS } = require(join(projectRoot(), 'tools/lookup/commands.js')) as { COMMANDS: Record<string, { help: string }> };
    const help = COMMANDS['keys'].help;
    for (const opt of ['--name', '--search-limit', '--query-limit', '--rate', '--burst', '--origin', '--ip', '--project', '--month', 'PER_SECOND|default', 'N|default', '--opt=value', '--origin URL|none', '--ip ADDR|CIDR|none']) {
      expect(help).toContain(opt);
    }
    for (const env of ['DATA_DIR', 'SQLITE_PATH', 'DATABASE_URL']) expect(help).toContain(env);
  });
});
