import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { monthOf } from '../quota/quota.service';

export interface CommandIo {
  out(line: string): void;
}

const USAGE = `Usage: npm run keys -- <command>
  create --name NAME [--search-limit N] [--query-limit N] [--rate PER_SECOND] [--burst N]
         [--origin URL]... [--ip ADDR|CIDR]... [--project NAME]
  list
  revoke ID
  limits ID [--search-limit N] [--query-limit N] [--rate PER_SECOND|default] [--burst N|default]
  restrict ID [--origin URL]... [--ip ADDR|CIDR]...   (no flags: remove all restrictions)
    --origin binds browsers only: any program can send an Origin header. Restrict keys used
    from servers with --ip.
  usage ID [--month YYYY-MM]`;

export class UsageError extends Error {}

function flags(args: string[]): { pos: string[]; one: Map<string, string>; many: Map<string, string[]> } {
  const pos: string[] = [];
  const one = new Map<string, string>();
  const many = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      pos.push(a);
      continue;
    }
    const v = args[++i];
    if (v === undefined) throw new UsageError(`${a} needs a value`);
    one.set(a.slice(2), v);
    many.set(a.slice(2), [...(many.get(a.slice(2)) ?? []), v]);
  }
  return { pos, one, many };
}

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
}

/** `--rate`: requests per second (decimals allowed, 0 = unlimited); `default` clears the key's own value. */
function rate(v: string | undefined): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === 'default') return null;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new UsageError('--rate must be a number of requests per second (or "default")');
  return Number(v);
}

function burst(v: string | undefined): number | null | undefined {
  if (v === 'default') return null;
  const n = int(v, 'burst');
  if (n === 0) throw new UsageError('--burst must be at least 1');
  return n;
}

async function keyById(repo: ApiKeyRepository, idText: string | undefined) {
  const id = int(idText, 'id');
  if (id === undefined) throw new UsageError('an ID is needed');
  const key = await repo.findById(id);
  if (!key) throw new UsageError(`no key with id ${id}`);
  return key;
}

/** The keys CLI's commands, separated from process handling so they can be tested. */
export async function runKeysCommand(argv: string[], service: ApiKeyService, repo: ApiKeyRepository, io: CommandIo): Promise<void> {
  const [cmd, ...rest] = argv;
  const { pos, one, many } = flags(rest);
  switch (cmd) {
    case 'create': {
      const name = one.get('name');
      if (!name) throw new UsageError('--name is required');
      const { key, entity } = await service.create({
        name,
        monthlySearchLimit: int(one.get('search-limit'), 'search-limit'),
        monthlyQueryLimit: int(one.get('query-limit'), 'query-limit'),
        allowedOrigins: many.get('origin'),
        allowedIps: many.get('ip'),
        project: one.get('project') ?? null,
        ratePerSecond: rate(one.get('rate')),
        rateBurst: burst(one.get('burst')),
      });
      io.out(`id ${entity.id}  key ${key}`);
      io.out('The key is shown only now; only its SHA-256 is stored.');
      return;
    }
    case 'list':
      for (const k of await repo.list()) {
        io.out(
          [k.id, k.keyPrefix ? k.keyPrefix + '…' : '(chosen key)', k.name, `search ${k.monthlySearchLimit}/month`, `query ${k.monthlyQueryLimit}/month`,
            `rate ${k.ratePerSecond ?? 'default'}/s burst ${k.rateBurst ?? 'default'}`,
            `origins ${k.allowedOrigins}`, `ips ${k.allowedIps}`, k.project ? `project ${k.project}` : '', k.revokedAt ? `REVOKED ${k.revokedAt}` : 'active']
            .filter(Boolean)
            .join('  '),
        );
      }
      return;
    case 'revoke': {
      const key = await keyById(repo, pos[0]);
      await repo.update(key.id, { revokedAt: new Date().toISOString() });
      io.out(`key ${key.id} revoked`);
      return;
    }
    case 'limits': {
      const key = await keyById(repo, pos[0]);
      const patch: { monthlySearchLimit?: number; monthlyQueryLimit?: number; ratePerSecond?: number | null; rateBurst?: number | null } = {};
      const s = int(one.get('search-limit'), 'search-limit');
      const q = int(one.get('query-limit'), 'query-limit');
      const r = rate(one.get('rate'));
      const b = burst(one.get('burst'));
      if (s !== undefined) patch.monthlySearchLimit = s;
      if (q !== undefined) patch.monthlyQueryLimit = q;
      if (r !== undefined) patch.ratePerSecond = r;
      if (b !== undefined) patch.rateBurst = b;
      if (!Object.keys(patch).length) throw new UsageError('give --search-limit, --query-limit, --rate and/or --burst');
      await repo.update(key.id, patch);
      io.out(`key ${key.id} limits updated`);
      return;
    }
    case 'restrict': {
      const key = await keyById(repo, pos[0]);
      await repo.update(key.id, { allowedOrigins: JSON.stringify(many.get('origin') ?? []), allowedIps: JSON.stringify(many.get('ip') ?? []) });
      io.out(`key ${key.id} restrictions updated`);
      return;
    }
    case 'usage': {
      const key = await keyById(repo, pos[0]);
      const month = one.get('month') ?? monthOf(new Date());
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError(`--month must be a month as YYYY-MM (e.g. ${monthOf(new Date())}), got ${month}`);
      const rows = await repo.usageOf(key.id, month);
      const count = (kind: string) => rows.find((r) => r.kind === kind)?.count ?? 0;
      // Counts include uses gateways hold on lease and have not used yet (given back when idle).
      const leased = rows.filter((r) => r.leased > 0).map((r) => `${r.kind} ${r.leased}`);
      const note = leased.length ? ` (of which on lease to gateways: ${leased.join(', ')})` : '';
      io.out(`key ${key.id} ${month}: search ${count('search')}/${key.monthlySearchLimit}, query ${count('query')}/${key.monthlyQueryLimit}${note}`);
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}
