import { Client, ClientConfig } from 'pg';

/** PostgreSQL's error codes this file tells apart (the first also database-errors.ts). */
export const DATABASE_MISSING = '3D000';
const DUPLICATE_DATABASE = '42P04';
/** Another CREATE DATABASE of the same name committed while ours ran (its row in pg_database came first). */
const UNIQUE_VIOLATION = '23505';
const INSUFFICIENT_PRIVILEGE = '42501';

const pgCode = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;

/** Where a URL points, for messages: never its password. */
export function databaseHost(url: URL): string {
  return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
}

const CONNECT: Pick<ClientConfig, 'connectionTimeoutMillis' | 'statement_timeout'> = { connectionTimeoutMillis: 5000, statement_timeout: 30000 };

/**
 * Makes sure the database DATABASE_URL names exists: when the server says it does not (a first
 * `lookup stack` or `lookup migrate` on a PostgreSQL that only has its own databases), it is
 * created from the server's maintenance database (`postgres`, else `template1`) with the same
 * user, as `createdb` would. A user who may not create databases gets an error that names the
 * database and both ways out, instead of the driver's bare "database ... does not exist".
 * Returns whether it created the database. Two runs racing both succeed (the loser sees it made).
 */
export async function ensureDatabase(databaseUrl: string, log: (line: string) => void = () => undefined): Promise<boolean> {
  const probe = new Client({ connectionString: databaseUrl, ...CONNECT });
  // The database the driver will ask for (the user's name when the URL names none).
  const name = probe.database ?? '';
  try {
    await probe.connect();
    return false;
  } catch (err) {
    if (pgCode(err) !== DATABASE_MISSING) throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const target = new URL(databaseUrl);
  const admin = await connectMaintenance(target);
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    log(`created database ${name} on ${databaseHost(target)}`);
    return true;
  } catch (err) {
    if (pgCode(err) === DUPLICATE_DATABASE || pgCode(err) === UNIQUE_VIOLATION) return false;
    if (pgCode(err) === INSUFFICIENT_PRIVILEGE) {
      throw new Error(
        `database "${name}" does not exist on ${databaseHost(target)} and user "${admin.user}" may not create databases: ` +
          `create it (createdb ${name}, or CREATE DATABASE as a superuser) or set DATABASE_URL to a database that exists`,
      );
    }
    throw err;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** A connection to the same server and user as `target`, on its maintenance database. */
async function connectMaintenance(target: URL): Promise<Client> {
  let last: unknown;
  for (const db of ['postgres', 'template1']) {
    const url = new URL(target.href);
    url.pathname = `/${db}`;
    const client = new Client({ connectionString: url.href, ...CONNECT });
    try {
      await client.connect();
      return client;
    } catch (err) {
      last = err;
      await client.end().catch(() => undefined);
      if (pgCode(err) !== DATABASE_MISSING) break;
    }
  }
  const why = last instanceof Error ? last.message : String(last);
  throw new Error(`database "${decodeURIComponent(target.pathname.slice(1))}" does not exist on ${databaseHost(target)}, and creating it needs the server's postgres database, which refused: ${why}`);
}
