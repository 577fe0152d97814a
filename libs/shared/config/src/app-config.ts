import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { getMetadataStorage, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, Min, ValidateBy, ValidationError, validateSync } from 'class-validator';
import { isLoopbackHost } from './loopback';

// Boolean settings: these spellings, in any case (`yes`/`on` were always read as true, so
// `no`/`off` are their false); anything else is refused, not read as false.
const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];
const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Empty (per profile), an IP address, or a host name whose labels are DNS labels and not all digits (`999.1.1.1` is neither). */
function isListenHost(v: string): boolean {
  if (v === '' || isIP(v) !== 0) return true;
  const labels = v.replace(/\.$/, '').split('.');
  return v.length <= 253 && labels.every((l) => HOST_LABEL.test(l)) && !labels.every((l) => /^\d+$/.test(l));
}

/** Whether something other than a directory is at this path (a missing path is created at start). */
function isNonDirectory(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const NUMBER_MESSAGE = ({ property }: { property: string }) => `${property} must be a number`;
const BOOLEAN_MESSAGE = ({ property }: { property: string }) => `${property} must be true or false (also 1/0, yes/no, on/off)`;

/** A boolean setting's text as a boolean; any other text stays as it is, for IsBoolean to refuse. */
const toBool = () =>
  Transform(({ value }) => {
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'boolean') return value;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return true;
    if (FALSE_WORDS.includes(word)) return false;
    return value;
  });

/**
 * TRUST_PROXY as the gateway reads it (Fastify's trustProxy, and client-ip.ts for other
 * headers): `true` or `false` (any case), a hop count, or proxy IPs / CIDR blocks,
 * comma-separated; `undefined` for anything else. Returned in the one spelling both readers take.
 */
export function normaliseTrustProxy(value: string): string | undefined {
  const v = value.trim();
  const word = v.toLowerCase();
  if (word === 'true' || word === 'false') return word;
  if (/^\d+$/.test(v)) return v;
  const parts = v.split(',').map((p) => p.trim());
  return parts.every(isProxyAddress) ? parts.join(',') : undefined;
}

function isProxyAddress(part: string): boolean {
  const slash = part.indexOf('/');
  const kind = isIP(slash === -1 ? part : part.slice(0, slash));
  if (kind === 0) return false;
  if (slash === -1) return true;
  const bits = part.slice(slash + 1);
  // A prefix length (what proxy-addr and ipAllowed both read); /0 proxy-addr refuses.
  return /^\d{1,3}$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (kind === 4 ? 32 : 128);
}

const TRUST_PROXY_MESSAGE =
  "TRUST_PROXY must be true, false, a hop count (0, 1, 2, ...) or the proxies' addresses: IPs or CIDR blocks, comma-separated (10.0.0.0/8,127.0.0.1)";

/**
 * Every setting the apps read, from the environment, validated once at boot. This is the
 * only place that reads process.env (the apps pass it in). Defaults are the standalone
 * profile on a bare machine.
 */
export class AppConfig {
  @IsIn(['standalone', 'distributed'])
  PROFILE: 'standalone' | 'distributed' = 'standalone';

  /**
   * Listen address. Empty: per profile — standalone 127.0.0.1 (a laptop: reachable only from this
   * machine), distributed 0.0.0.0 (containers; compose and k8s also set it). The image sets 0.0.0.0.
   */
  @ValidateBy({ name: 'isListenHost', validator: { validate: (v) => typeof v === 'string' && isListenHost(v), defaultMessage: () => 'HOST must be an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)' } })
  HOST = '';
  @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT = 3000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** One server, or the servers of a cluster comma-separated (the client fails over between them). */
  @Matches(/^(nats|tls):\/\/[^\s,]+(\s*,\s*(nats|tls):\/\/[^\s,]+)*$/, { message: 'NATS_URL must be nats:// or tls:// URLs, comma-separated' })
  NATS_URL = 'nats://127.0.0.1:4222';
  @IsString() NATS_SUBJECT_PREFIX = 'lookup';
  @Type(() => Number) @IsInt() @Min(50) @Max(120000) TRANSPORT_TIMEOUT_MS = 5000;

  @IsString() DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/lookup';
  @IsOptional() @IsString() DATABASE_SCHEMA?: string;
  @ValidateBy({ name: 'isDataDir', validator: { validate: (v) => typeof v === 'string' && v !== '' && !isNonDirectory(v), defaultMessage: () => 'DATA_DIR must be a directory (created when missing), not a file' } })
  DATA_DIR = 'var';
  @IsOptional() @IsString() SQLITE_PATH?: string;

  /** One node, or the nodes of a cluster comma-separated (a request goes to the next node when one is down). */
  @Matches(/^https?:\/\/[^\s,]+(\s*,\s*https?:\/\/[^\s,]+)*$/, { message: 'OPENSEARCH_URL must be http(s) URLs, comma-separated' })
  OPENSEARCH_URL = 'http://127.0.0.1:9200';
  @IsString() INDEX_PREFIX = 'lookup';
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) OPENSEARCH_TIMEOUT_MS = 10000;
  /**
   * Standalone (SQLite): worker threads the place searches run on, each with its own read-only
   * connection; 0 runs them on the main thread. Default: one per core, at most four.
   */
  @Type(() => Number) @IsInt() @Min(0) @Max(32) SEARCH_THREADS = Math.min(4, availableParallelism());
  /**
   * Standalone: while searches cost less than this lately (ms, a moving average) and one client
   * has had the server to itself for 20 ms (every request on one kept-alive connection, none
   * other open: search-threads.ts), a search runs on the main thread instead, saving the
   * threads' round trip (two wake-ups). Under load, requests come on many connections and the
   * searches stay on the threads. 5 (the default) covers the sample and a whole register's
   * typical search (about 1 ms on a fast machine, 2 on one half as fast, where a bound of 2 sent
   * half of them to the threads: +0.27 ms at p50); 0: always on the threads (README, Benchmarks).
   */
  @Type(() => Number) @IsNumber({}, { message: NUMBER_MESSAGE }) @Min(0) @Max(100) SEARCH_INLINE_BELOW_MS = 5;

  // Keys and abuse limits (gateway). See README "Security".
  /** A key ensured at start (scripts, tests). Without it, an empty standalone key store gets one random key, printed once. */
  @IsOptional() @IsString() SEED_API_KEY?: string;
  /** Requests per second a key may make (token bucket, shared by all gateway replicas); per key via `keys limits`. 0: no limit. */
  @Type(() => Number) @IsNumber({}, { message: NUMBER_MESSAGE }) @Min(0) @Max(1_000_000) RATE_LIMIT_PER_SECOND = 100;
  /** Requests a key may make at once above its rate (bucket size). */
  @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) RATE_LIMIT_BURST = 200;
  /**
   * E-mail check: CIDRs whose mail servers may be probed although private/loopback/link-local
   * (tests, private deployments), comma-separated. Empty: only public addresses are contacted.
   */
  @IsString() EMAIL_SMTP_ALLOWED_CIDRS = '';
  /**
   * Seconds a key the database confirmed keeps being served from the gateway's cache while the
   * database is unreachable (a key revoked meanwhile works until then).
   */
  @Type(() => Number) @IsInt() @Min(0) @Max(86400) KEY_CACHE_TTL_SECONDS = 300;
  /** A cached key older than this is re-read from the database behind the request that uses it: about how long a revocation takes to reach every replica. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) KEY_CACHE_REFRESH_MS = 5000;
  /** Most monthly uses a gateway replica leases from the database at once (per key, kind and month); 1: one database write per request. */
  @Type(() => Number) @IsInt() @Min(1) @Max(100000) QUOTA_LEASE_MAX = 100;
  /** Replicas a lease leaves room for: one lease takes at most (remaining uses) / (2 x this), so the limit stays exact and shared fairly. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) QUOTA_LEASE_REPLICAS = 4;
  /** How often a replica writes its answered uses and outage journal to the database and returns idle leases. */
  @Type(() => Number) @IsInt() @Min(50) @Max(60000) QUOTA_FLUSH_MS = 1000;
  /** Leased uses not needed for this long are returned. */
  @Type(() => Number) @IsInt() @Min(0) @Max(600000) QUOTA_LEASE_IDLE_MS = 2000;
  @Type(() => Number) @IsInt() @Min(0) DEFAULT_MONTHLY_SEARCH_LIMIT = 100000;
  @Type(() => Number) @IsInt() @Min(0) DEFAULT_MONTHLY_QUERY_LIMIT = 10000;
  /** Intl: votes of distinct members that approve a pending translation. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) INTL_APPROVAL_VOTES = 3;
  /** Intl store in the standalone profile; default `intl.sqlite` beside the main SQLite file. */
  @IsOptional() @IsString() INTL_SQLITE_PATH?: string;

  /** Fastify trustProxy: false, true, a hop count, or a comma-separated list of proxy addresses (IPs, CIDR blocks). */
  @Transform(({ value }) => (typeof value === 'string' || typeof value === 'boolean' ? (normaliseTrustProxy(String(value)) ?? value) : value))
  @ValidateBy({ name: 'isTrustProxy', validator: { validate: (v) => typeof v === 'string' && normaliseTrustProxy(v) === v, defaultMessage: () => TRUST_PROXY_MESSAGE } })
  TRUST_PROXY = 'false';
  /**
   * The header a trusted proxy names the caller in (`around_latlng_via_ip`, IP restrictions):
   * `x-forwarded-for` (walked per TRUST_PROXY) or a one-address header like `x-real-ip`. Ignored
   * while TRUST_PROXY is false: then only the socket address counts.
   */
  @IsString() @Matches(/^[a-z0-9-]+$/i) TRUSTED_PROXY_HEADER = 'x-forwarded-for';

  /**
   * The demo page at `/` (address, business and e-mail lookups and a map). Unset: on in the
   * standalone profile listening on loopback only (what `lookup start` does), off otherwise.
   */
  @IsOptional() @toBool() @IsBoolean({ message: BOOLEAN_MESSAGE }) DEMO_PAGE?: boolean;
  /** A fixed key for the demo page. Empty: a key is made per start for the page's own origin, with a small quota. */
  @IsString() DEMO_API_KEY = '';
  /**
   * Origins the demo page makes its per-start keys for, besides loopback (`http://127.0.0.1:3000`,
   * `http://localhost:3000`, `http://[::1]:3000`), comma-separated: `https://lookup.example.com`.
   * The page loaded under any other Host gets no key (the visitor pastes one): a Host header is
   * the caller's to choose, and each key is quota someone else could spend from their own site.
   */
  @IsString()
  @Matches(/^(https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*)?$/, { message: 'DEMO_PAGE_ORIGINS must be origins (scheme://host[:port], no path), comma-separated' })
  DEMO_PAGE_ORIGINS = '';
  /** Map tiles behind the demo page's map, e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`. Empty: the map has no background. */
  @IsString() @Matches(/^(https?:\/\/\S+)?$/) DEMO_TILE_URL = '';

  /** Import the bundled sample data when the standalone store is empty. */
  @toBool() @IsBoolean({ message: BOOLEAN_MESSAGE }) SAMPLE_DATA = true;

  @IsOptional() @IsString() CZ_CATALOGUE_CSV?: string;
  @IsOptional() @IsString() SK_REGISTER_BATCHES?: string;
  @IsOptional() @IsString() GEONAMES_DIR?: string;
  /** RUIAN address points (the monthly zip or an unpacked folder) the standalone store imports when it has none. */
  @IsOptional() @IsString() CZ_ADDRESSES?: string;
  /** Business: CZ RES `res_data.csv`, optional RUIAN address zip (joined by KODADM), SK RPO JSON files and ARES JSON refreshes (comma-separated paths). */
  @IsOptional() @IsString() BUSINESS_RES_CSV?: string;
  @IsOptional() @IsString() BUSINESS_RUIAN_ZIP?: string;
  @IsOptional() @IsString() BUSINESS_RPO_JSON?: string;
  @IsOptional() @IsString() BUSINESS_ARES_JSON?: string;

  // E-mail check (utils). Port and resolvers are settable so tests can run real servers on loopback.
  /** Probe mailboxes over SMTP; when off, every address that passes DNS is `unknown`. */
  @toBool() @IsBoolean({ message: BOOLEAN_MESSAGE }) EMAIL_SMTP_PROBE = true;
  @Type(() => Number) @IsInt() @Min(1) @Max(65535) EMAIL_SMTP_PORT = 25;
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) EMAIL_SMTP_TIMEOUT_MS = 8000;
  /** Name sent in EHLO and the envelope sender of the probe; use a domain the operator owns. */
  @IsString() EMAIL_HELO_NAME = 'localhost';
  @IsString() EMAIL_MAIL_FROM = 'postmaster@localhost';
  /** Comma-separated `ip` or `ip:port` DNS servers; empty: the system's resolvers. */
  // A default, not `?`: loadConfig only reads keys an instance has.
  @IsString() EMAIL_DNS_SERVERS = '';
  @Type(() => Number) @IsInt() @Min(50) @Max(60000) EMAIL_DNS_TIMEOUT_MS = 3000;
  /** Whole-check budget; kept below TRANSPORT_TIMEOUT_MS at run time so the caller gets a verdict. */
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) EMAIL_CHECK_TIMEOUT_MS = 15000;
  /** Seconds a finished verdict is reused; 0 turns the cache off. */
  @Type(() => Number) @IsInt() @Min(0) EMAIL_CACHE_TTL_SECONDS = 3600;
  @Type(() => Number) @IsInt() @Min(1) EMAIL_CACHE_MAX_ENTRIES = 10000;

  // Translator, IP details, EU VAT check (utils). Each outside call has its own timeout, kept below TRANSPORT_TIMEOUT_MS.
  /** Which translation provider answers `translator/translate`. */
  @IsIn(['google', 'deepl', 'libretranslate']) TRANSLATOR_PROVIDER: 'google' | 'deepl' | 'libretranslate' = 'libretranslate';
  /** Provider base URL; empty: the provider's public endpoint (LibreTranslate: a local instance on :5000). */
  @IsOptional() @IsUrl({ protocols: ['http', 'https'], require_tld: false }) TRANSLATOR_URL?: string = undefined;
  @IsOptional() @IsString() TRANSLATOR_API_KEY?: string = undefined;
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) TRANSLATOR_TIMEOUT_MS = 4000;
  /** Seconds a language list fetched from the provider (LibreTranslate) is reused. */
  @Type(() => Number) @IsInt() @Min(0) TRANSLATOR_LANGUAGES_TTL_SECONDS = 3600;
  /** MMDB city databases (IPv4, IPv6) and the ASN directory; empty: the bundled DB-IP Lite packages. */
  @IsOptional() @IsString() IP_CITY_MMDB_V4?: string = undefined;
  @IsOptional() @IsString() IP_CITY_MMDB_V6?: string = undefined;
  @IsOptional() @IsString() IP_ASN_DIR?: string = undefined;
  /** Comma-separated `ip` or `ip:port` resolvers for reverse DNS; empty: the system's. */
  @IsOptional() @IsString() IP_DNS_SERVERS?: string = undefined;
  @Type(() => Number) @IsInt() @Min(50) @Max(30000) IP_DNS_TIMEOUT_MS = 800;
  @IsUrl({ protocols: ['http', 'https'], require_tld: false }) VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) VIES_TIMEOUT_MS = 3000;
  /** Whole budget for one check including retries of VIES's transient failures. */
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) VIES_DEADLINE_MS = 4500;
  @Type(() => Number) @IsInt() @Min(0) @Max(10) VIES_RETRIES = 3;
  @Type(() => Number) @IsInt() @Min(0) @Max(60000) VIES_RETRY_BASE_MS = 250;
  /** Seconds a valid answer is reused; 0 turns the cache off. Invalid answers and failures are never cached. */
  @Type(() => Number) @IsInt() @Min(0) VIES_CACHE_TTL_SECONDS = 86400;

  // Gateway HTTP limits against slow and greedy clients (compat). Node checks the two timeouts
  // every HTTP_TIMEOUT_CHECK_MS, so a cut-off lands up to that much after the deadline.
  /** Whole request, headers and body: a slow-loris upload is cut off here (408). */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) HTTP_REQUEST_TIMEOUT_MS = 20000;
  /** Headers alone; taken as at most HTTP_REQUEST_TIMEOUT_MS. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) HTTP_HEADERS_TIMEOUT_MS = 10000;
  @Type(() => Number) @IsInt() @Min(50) @Max(60000) HTTP_TIMEOUT_CHECK_MS = 1000;
  /** Idle keep-alive connections are closed after this. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;
  /** Open connections one client address may hold (0: no cap). Behind a proxy, the proxy is that address. */
  @Type(() => Number) @IsInt() @Min(0) @Max(100000) HTTP_MAX_CONNECTIONS_PER_IP = 256;

  // Indexer: the dataset scheduler (off by default) and the download adapter.
  /** Check the official sources every SCHEDULER_INTERVAL_HOURS and publish `datasets.updated` for what changed. */
  @toBool() @IsBoolean({ message: BOOLEAN_MESSAGE }) SCHEDULER_ENABLED = false;
  /** A JSON file, or inline JSON: `[{"country":"CZ","kind":"addresses","format":"ruian-csv","url":"https://...","checksumUrl":"https://..."}]`. */
  @IsString() SCHEDULER_SOURCES = '';
  @Type(() => Number) @IsNumber({}, { message: NUMBER_MESSAGE }) @Min(0.01) @Max(24 * 31) SCHEDULER_INTERVAL_HOURS = 24;
  /** ETag / Last-Modified / sha256 per source; default `<DATA_DIR>/scheduler-state.json`. */
  @IsOptional() @IsString() SCHEDULER_STATE_FILE?: string = undefined;
  /** Where downloaded datasets land; default `<DATA_DIR>/downloads`. */
  @IsOptional() @IsString() DOWNLOAD_DIR?: string = undefined;
  /** Connect, headers and every pause in a download's body. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) DOWNLOAD_TIMEOUT_MS = 60000;
  /** Biggest dataset file accepted, in MiB. */
  @Type(() => Number) @IsInt() @Min(1) DOWNLOAD_MAX_MB = 16384;

  // Import: where `npm run import -- addresses CZ` (no file) finds the current RUIAN monthly product.
  @IsString() @Matches(/^https?:\/\//) RUIAN_CSV_BASE_URL = 'https://vdp.cuzk.cz/vymenny_format/csv';

  /** DEMO_PAGE_ORIGINS as a list, lowercase, without a trailing slash. */
  get demoPageOrigins(): string[] {
    return this.DEMO_PAGE_ORIGINS.split(',').map((o) => o.trim().toLowerCase()).filter(Boolean);
  }

  /** DEMO_PAGE as given, else on for the standalone profile on a loopback address. */
  get demoPageEnabled(): boolean {
    return this.DEMO_PAGE ?? (this.PROFILE === 'standalone' && isLoopbackHost(this.HOST));
  }

  get sqlitePath(): string {
    return this.SQLITE_PATH ?? `${this.DATA_DIR}/lookup.sqlite`;
  }
}

export class ConfigError extends Error {}

/**
 * Checks that say what kind of value a setting takes: when one fails, the range checks beside
 * it (which fail too on `abc`, read as NaN) say nothing more.
 */
const TYPE_CHECKS = ['isInt', 'isNumber', 'isBoolean'];

/** One line per bad setting: the value as given (not as converted: `abc` is NaN by then) and what it must be. */
function errorLines(errors: ValidationError[], given: Record<string, unknown>): string[] {
  return errors.map((e) => {
    const constraints = e.constraints ?? {};
    const types = TYPE_CHECKS.filter((c) => c in constraints);
    const messages = types.length > 0 ? types.map((c) => constraints[c]) : Object.values(constraints);
    return `  ${e.property}=${JSON.stringify(given[e.property] ?? e.value)}: ${messages.join('; ')}`;
  });
}

export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof AppConfig, unknown>> = {}): AppConfig {
  // Every validated property, including optional ones without an initializer (those are not
  // own properties of an instance when class fields are not [[Define]]d, as under SWC).
  const known = new Set([
    ...Object.keys(new AppConfig()),
    ...getMetadataStorage().getTargetValidationMetadatas(AppConfig, '', false, false).map((m) => m.propertyName),
  ]);
  const fromEnv: Record<string, unknown> = {};
  for (const k of known) {
    if (env[k] !== undefined && env[k] !== '') fromEnv[k] = env[k];
  }
  const plain: Record<string, unknown> = { ...fromEnv, ...overrides };
  const cfg = plainToInstance(AppConfig, plain, { exposeDefaultValues: true });
  if (!cfg.HOST) cfg.HOST = cfg.PROFILE === 'standalone' ? '127.0.0.1' : '0.0.0.0';
  const lines = errorLines(validateSync(cfg, { whitelist: true }), plain);
  // A setting the app fixes (each app's PROFILE) is still checked as the environment gives it:
  // `PROFILE=foo npm start` is a mistake to say, not to ignore.
  const shadowed = Object.keys(overrides).filter((k) => k in fromEnv);
  if (shadowed.length > 0) {
    const envOnly: Record<string, unknown> = {};
    for (const k of shadowed) envOnly[k] = fromEnv[k];
    const envErrors = validateSync(plainToInstance(AppConfig, envOnly, { exposeDefaultValues: true }), { whitelist: true }).filter((e) => shadowed.includes(e.property));
    lines.push(...errorLines(envErrors, envOnly));
  }
  if (lines.length) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return cfg;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

type NestLevel = 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose';
const NEST_LEVELS: NestLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const CUTOFF: Record<string, number> = { silent: -1, fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };

/** Nest's logger levels for LOG_LEVEL (false when silent). */
export function nestLogLevels(config: AppConfig): NestLevel[] | false {
  const cut = CUTOFF[config.LOG_LEVEL] ?? 3;
  return cut < 0 ? false : NEST_LEVELS.slice(0, cut + 1);
}
