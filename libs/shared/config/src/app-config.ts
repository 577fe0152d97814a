import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, validateSync } from 'class-validator';

const toBool = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase())));

/**
 * Every setting the apps read, from the environment, validated once at boot. This is the
 * only place that reads process.env (the apps pass it in). Defaults are the standalone
 * profile on a bare machine.
 */
export class AppConfig {
  @IsIn(['standalone', 'distributed'])
  PROFILE: 'standalone' | 'distributed' = 'standalone';

  @IsString() HOST = '0.0.0.0';
  @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT = 3000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsUrl({ protocols: ['nats', 'tls'], require_tld: false }) NATS_URL = 'nats://127.0.0.1:4222';
  @IsString() NATS_SUBJECT_PREFIX = 'lookup';
  @Type(() => Number) @IsInt() @Min(50) @Max(120000) TRANSPORT_TIMEOUT_MS = 5000;

  @IsString() DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/lookup';
  @IsOptional() @IsString() DATABASE_SCHEMA?: string;
  @IsString() DATA_DIR = 'var';
  @IsOptional() @IsString() SQLITE_PATH?: string;

  @IsUrl({ protocols: ['http', 'https'], require_tld: false }) OPENSEARCH_URL = 'http://127.0.0.1:9200';
  @IsString() INDEX_PREFIX = 'lookup';
  @Type(() => Number) @IsInt() @Min(100) @Max(120000) OPENSEARCH_TIMEOUT_MS = 10000;

  @IsOptional() @IsString() SEED_API_KEY?: string;
  @Type(() => Number) @IsInt() @Min(0) DEFAULT_MONTHLY_SEARCH_LIMIT = 100000;
  @Type(() => Number) @IsInt() @Min(0) DEFAULT_MONTHLY_QUERY_LIMIT = 10000;

  /** Fastify trustProxy: false, true, a hop count, or a comma-separated list of proxy addresses. */
  @IsString() TRUST_PROXY = 'false';

  /** Import the bundled sample data when the standalone store is empty. */
  @toBool() @IsBoolean() SAMPLE_DATA = true;

  @IsOptional() @IsString() CZ_CATALOGUE_CSV?: string;
  @IsOptional() @IsString() SK_REGISTER_BATCHES?: string;
  @IsOptional() @IsString() GEONAMES_DIR?: string;

  get sqlitePath(): string {
    return this.SQLITE_PATH ?? `${this.DATA_DIR}/lookup.sqlite`;
  }
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof AppConfig, unknown>> = {}): AppConfig {
  const known = Object.keys(new AppConfig());
  const plain: Record<string, unknown> = {};
  for (const k of known) {
    if (env[k] !== undefined && env[k] !== '') plain[k] = env[k];
  }
  Object.assign(plain, overrides);
  const cfg = plainToInstance(AppConfig, plain, { exposeDefaultValues: true });
  const errors = validateSync(cfg, { whitelist: true });
  if (errors.length) {
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
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
