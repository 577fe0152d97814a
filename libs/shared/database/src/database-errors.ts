import { DATABASE_MISSING, databaseHost } from './ensure-database';

/** PostgreSQL's error codes for a schema that is not there (a database: ensure-database.ts). */
const SCHEMA_MISSING = '3F000';
/** Table not there: the schema exists but the migrations have not run in it. */
const TABLE_MISSING = '42P01';

/** Where a URL points, for messages: host, port and database, never the password. */
function describeUrl(databaseUrl: string): { where: string; database: string } {
  try {
    const url = new URL(databaseUrl);
    return { where: databaseHost(url), database: decodeURIComponent(url.pathname.slice(1)) || url.username || 'postgres' };
  } catch {
    return { where: 'the server in DATABASE_URL', database: '(unreadable DATABASE_URL)' };
  }
}

/**
 * One line for a command-line tool whose PostgreSQL (the distributed profile's keys, quotas and
 * projects) cannot be used as configured, saying which setting to change, instead of the driver's
 * error or Nest's retries: a database or schema that is not there (`lookup migrate` makes both),
 * a server that does not answer. Null for any other error.
 */
export function explainDatabaseError(err: unknown, config: { DATABASE_URL: string; DATABASE_SCHEMA?: string }): string | null {
  const e = err as { code?: string; message?: string } | null;
  const { where, database } = describeUrl(config.DATABASE_URL);
  const migrate = `run \`PROFILE=distributed DATABASE_URL=${redact(config.DATABASE_URL)}${config.DATABASE_SCHEMA ? ` DATABASE_SCHEMA=${config.DATABASE_SCHEMA}` : ''} npx lookup migrate\` (it creates them)`;
  switch (e?.code) {
    case DATABASE_MISSING:
      return `database "${database}" does not exist on ${where} (DATABASE_URL=${redact(config.DATABASE_URL)}): set DATABASE_URL to the database the gateway uses, or ${migrate}`;
    case SCHEMA_MISSING:
    case TABLE_MISSING:
      return `${e.message ?? 'schema missing'} in database "${database}" on ${where}${config.DATABASE_SCHEMA ? ` (DATABASE_SCHEMA=${config.DATABASE_SCHEMA})` : ''}: set DATABASE_URL/DATABASE_SCHEMA to what the gateway uses, or ${migrate}`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
      return `cannot reach PostgreSQL at ${where} (DATABASE_URL=${redact(config.DATABASE_URL)}): ${e.message ?? e.code}; start it (npm run servers:up) or set DATABASE_URL`;
    default:
      if (/timeout expired|Connection terminated due to connection timeout/i.test(e?.message ?? '')) {
        return `cannot reach PostgreSQL at ${where} (DATABASE_URL=${redact(config.DATABASE_URL)}): no answer within the connect timeout; start it (npm run servers:up) or set DATABASE_URL`;
      }
      return null;
  }
}

/** The URL with its password replaced, for messages. */
function redact(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return '(unreadable)';
  }
}
