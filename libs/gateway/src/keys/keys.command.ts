import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { monthOf } from '../quota/quota.service';

export interface CommandIo {
  out(line: string): void;
}

/** Each command: its options (`one`: once at most, `many`: repeatable; all take a value), whether it takes an ID, its usage line. */
interface CommandSpec {
  options: Record<string, 'one' | 'many'>;
  id: boolean;
  usage: string;
}

const COMMANDS: Record<string, CommandSpec> = {
  create: {
    options: { name: 'one', 'search-limit': 'one', 'query-limit': 'one', rate: 'one', burst: 'one', origin: 'many', ip: 'many', project: 'one' },
    id: false,
    usage: `create --name NAME [--search-limit N] [--query-limit N] [--rate PER_SECOND] [--burst N]
         [--origin URL]... [--ip ADDR|CIDR]... [--project NAME]`,
  },
  list: { options: {}, id: false, usage: 'list' },
  revoke: { options: {}, id: true, usage: 'revoke ID   (an already revoked key: says so, exit 0)' },
  limits: {
    options: { 'search-limit': 'one', 'query-limit': 'one', rate: 'one', burst: 'one' },
    id: true,
    usage: 'limits ID [--search-limit N] [--query-limit N] [--rate PER_SECOND|default] [--burst N|default]',
  },
  restrict: {
    options: { origin: 'many', ip: 'many' },
    id: true,
    usage: `restrict ID [--origin URL|none]... [--ip ADDR|CIDR|none]...
         changes only the list it names (none: empties it); no flags: remove all restrictions`,
  },
  usage: { options: { month: 'one' }, id: true, usage: 'usage ID [--month YYYY-MM]' },
};

const USAGE = `Usage: npm run keys -- <command>   (options as --opt value or --opt=value)
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}
    --origin URL: scheme://host[:port] as a browser sends it (https://shop.example), or *.example.com
    for any subdomain. --origin binds browsers only: any program can send an Origin header.
    Restrict keys used from servers with --ip (an IPv4/IPv6 address or CIDR block).
  Run it with the server's DATA_DIR/SQLITE_PATH (standalone) or DATABASE_URL (distributed):
  elsewhere it works on (and creates) another, empty key store.`;

export class UsageError extends Error {}

export interface ParsedKeysArgs {
  /** The key id (commands that take one), checked to be a number. */
  id?: number;
  one: Map<string, string>;
  many: Map<string, string[]>;
}

/**
 * The command's arguments: `--opt value` or `--opt=value` for the options `spec` knows; any other
 * option, a repeated single option, an option without a value or a stray argument is a usage error,
 * so a typo can never be dropped silently (and, for `restrict`, read as "remove restrictions").
 */
function flags(cmd: string, spec: CommandSpec, args: string[]): ParsedKeysArgs {
  const usage = `Usage: npm run keys -- ${spec.usage}`;
  const fail = (msg: string) => new UsageError(`keys ${cmd}: ${msg}\n${usage}`);
  const pos: string[] = [];
  const one = new Map<string, string>();
  const many = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-') {
      pos.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const opt = eq >= 0 ? a.slice(0, eq) : a;
    const name = opt.startsWith('--') ? opt.slice(2) : '';
    const kind = Object.prototype.hasOwnProperty.call(spec.options, name) ? spec.options[name] : undefined;
    if (!kind) {
      const known = Object.keys(spec.options).map((o) => `--${o}`);
      throw fail(`unknown option ${opt}${known.length ? ` (options: ${known.join(' ')})` : ' (it takes no options)'}`);
    }
    let v: string | undefined;
    if (eq >= 0) v = a.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) v = args[++i];
    if (v === undefined || v === '') throw fail(`${opt} needs a value`);
    if (kind === 'one' && one.has(name)) throw fail(`${opt} given more than once`);
    one.set(name, v);
    many.set(name, [...(many.get(name) ?? []), v]);
  }
  if (pos.length > (spec.id ? 1 : 0)) throw fail(`unexpected argument ${pos[spec.id ? 1 : 0]}`);
  if (!spec.id) return { one, many };
  if (pos[0] === undefined) throw fail('the key id is missing (keys list shows every key\'s id)');
  if (!/^\d+$/.test(pos[0])) throw fail(`key id must be a number: ${pos[0]}`);
  return { id: Number(pos[0]), one, many };
}

/**
 * `--ip`: an IPv4/IPv6 address or CIDR block, stored in the form the gateway compares (restrictions.ts):
 * IPv6 compressed and lower case, an IPv4-mapped address as IPv4, a block by its first address
 * (`10.0.0.1/24` is stored as `10.0.0.0/24`, with a line in `notes` saying so).
 */
function normalizeIpRule(rule: string, notes: string[]): string {
  const bad = (why: string) => new UsageError(`--ip ${rule}: ${why}`);
  const [addr, bitsText, extra] = rule.trim().split('/');
  if (extra !== undefined) throw bad('not an IP address or CIDR block');
  const kind = isIP(addr);
  if (kind === 0 || addr.includes('%')) throw bad('not an IP address or CIDR block (e.g. 203.0.113.7, 203.0.113.0/24, 2001:db8::/32)');
  let canonical = addr;
  if (kind === 6) {
    canonical = new URL(`http://[${addr}]`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (mapped) {
      if (bitsText !== undefined) throw bad('write an IPv4-mapped block in its IPv4 form (e.g. 10.0.0.0/8)');
      const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
      return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    }
  }
  if (bitsText === undefined) return canonical;
  const width = kind === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > width) throw bad(`the prefix length must be 0-${width}`);
  const bits = Number(bitsText);
  const network = (kind === 4 ? ipaddr.IPv4 : ipaddr.IPv6).networkAddressFromCIDR(`${canonical}/${bits}`).toString();
  if (network !== canonical) notes.push(`note: --ip ${rule} is stored as ${network}/${bits} (the block's first address; the same addresses match)`);
  return `${network}/${bits}`;
}

/**
 * `restrict`'s value for one list: undefined when the option is not given (the list stays), [] for
 * `none` (the list is emptied), else the normalized rules.
 */
function restrictList(opt: 'origin' | 'ip', values: string[] | undefined, normalize: (rule: string) => string): string[] | undefined {
  if (values === undefined) return undefined;
  if (!values.includes('none')) return values.map(normalize);
  if (values.length > 1) throw new UsageError(`--${opt} none empties the list; give it alone, not with other --${opt} values`);
  return [];
}

/** The candidate a mistyped word most likely meant: the nearest within 2 edits (and fewer edits than the word has letters). */
function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(3, word.length);
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * `--origin`: `scheme://host[:port]` (http or https, no path), stored as the browser's serialisation
 * of it (lower case, default port dropped, IDN as punycode, no trailing slash), which is what the
 * gateway compares a request's Origin with; or `*.example.com`, any subdomain.
 */
function normalizeOriginRule(rule: string): string {
  const bad = (why: string) => new UsageError(`--origin ${rule}: ${why}`);
  const v = rule.trim();
  if (v.startsWith('*.')) {
    const host = v.slice(2);
    let parsed: URL | undefined;
    try {
      parsed = new URL(`https://${host}`);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !host || /[/?#@]/.test(host) || parsed.hostname.includes('*')) throw bad('a wildcard is *.example.com (any subdomain of example.com)');
    return `*.${parsed.host}`;
  }
  const hint = 'give scheme://host[:port] as a browser sends it, e.g. https://shop.example';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw bad(hint);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(`only http and https origins can be matched; ${hint}`);
  if (url.username || url.password || url.pathname !== '/' || /[?#]/.test(v) || !/^https?:\/\/[^/]+\/?$/i.test(v)) {
    throw bad(`an origin has no path, query or user; ${hint}`);
  }
  return url.origin;
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

async function keyById(repo: ApiKeyRepository, id: number | undefined) {
  if (id === undefined) throw new UsageError('the key id is missing');
  const key = await repo.findById(id);
  if (!key) throw new UsageError(`no key with id ${id}`);
  return key;
}

/** The keys CLI's commands, separated from process handling so they can be tested. */
/**
 * The command word and its options, checked without the key store: a usage error (an unknown
 * command or option, an id that is not a number) is said before any database is opened.
 */
export function parseKeysArgs(argv: string[]): ParsedKeysArgs & { cmd: string } {
  const [cmd, ...rest] = argv;
  const spec = cmd !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (!spec) {
    if (cmd === undefined) throw new UsageError(USAGE);
    const names = Object.keys(COMMANDS);
    const near = closest(cmd, names);
    throw new UsageError(`unknown keys command "${cmd}"${near ? ` (did you mean "${near}"?)` : ''}; commands: ${names.join(', ')}\n${USAGE}`);
  }
  return { cmd, ...flags(cmd, spec, rest) };
}

export async function runKeysCommand(argv: string[], service: ApiKeyService, repo: ApiKeyRepository, io: CommandIo): Promise<void> {
  const { cmd, id, one, many } = parseKeysArgs(argv);
  const notes: string[] = [];
  switch (cmd) {
    case 'create': {
      const name = one.get('name');
      if (!name) throw new UsageError('--name is required');
      const { key, entity } = await service.create({
        name,
        monthlySearchLimit: int(one.get('search-limit'), 'search-limit'),
        monthlyQueryLimit: int(one.get('query-limit'), 'query-limit'),
        allowedOrigins: many.get('origin')?.map(normalizeOriginRule),
        allowedIps: many.get('ip')?.map((r) => normalizeIpRule(r, notes)),
        project: one.get('project') ?? null,
        ratePerSecond: rate(one.get('rate')),
        rateBurst: burst(one.get('burst')),
      });
      io.out(`id ${entity.id}  key ${key}`);
      io.out('The key is shown only now; only its SHA-256 is stored.');
      notes.forEach((n) => io.out(n));
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
      const key = await keyById(repo, id);
      // Exit 0 either way, so a script that revokes can be run again; the first revocation's time stays.
      if (key.revokedAt) {
        io.out(`key ${key.id} was already revoked (at ${key.revokedAt}); nothing changed`);
        return;
      }
      await repo.update(key.id, { revokedAt: new Date().toISOString() });
      io.out(`key ${key.id} revoked`);
      return;
    }
    case 'limits': {
      const key = await keyById(repo, id);
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
      const origins = restrictList('origin', many.get('origin'), normalizeOriginRule);
      const ips = restrictList('ip', many.get('ip'), (r) => normalizeIpRule(r, notes));
      const key = await keyById(repo, id);
      // No option at all: both lists emptied (the documented "remove all restrictions").
      const all = origins === undefined && ips === undefined;
      const allowedOrigins = all ? [] : (origins ?? (JSON.parse(key.allowedOrigins) as string[]));
      const allowedIps = all ? [] : (ips ?? (JSON.parse(key.allowedIps) as string[]));
      await repo.update(key.id, { allowedOrigins: JSON.stringify(allowedOrigins), allowedIps: JSON.stringify(allowedIps) });
      const shown = (list: string[], given: boolean) => `${list.length ? list.join(', ') : 'any'}${given || all ? '' : ' (unchanged)'}`;
      io.out(`key ${key.id} restrictions now: origins ${shown(allowedOrigins, origins !== undefined)}; ips ${shown(allowedIps, ips !== undefined)}`);
      notes.forEach((n) => io.out(n));
      return;
    }
    case 'usage': {
      const key = await keyById(repo, id);
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
