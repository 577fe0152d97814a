import { Client } from 'pg';
import { serverUrl } from './servers';
import { uniqueName } from './tmp';

/** The test server's URL with another database name (and, when given, another user). */
export function postgresUrlFor(database: string, user?: string): string {
  const url = new URL(serverUrl('postgres'));
  url.pathname = `/${database}`;
  if (user) url.username = user;
  return url.href;
}

/**
 * A schema of its own for one test suite, so suites can run in parallel on one database and
 * leave nothing behind. Point TypeORM at it with DATABASE_URL + DATABASE_SCHEMA.
 */
export async function createTestSchema(prefix = 'test'): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const url = serverUrl('postgres');
  const schema = uniqueName(prefix);
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"`);
  } finally {
    await client.end();
  }
  return {
    url,
    schema,
    drop: async () => {
      const c = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}
