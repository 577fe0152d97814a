import { Client } from 'pg';
import { describeWith, postgresUrlFor as urlFor, serverUrl, uniqueName } from '@lookup/shared/testing';
import { ensureDatabase } from './ensure-database';

async function onServer<T>(sql: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: serverUrl('postgres'), connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await sql(c);
  } finally {
    await c.end();
  }
}

const databaseExists = (name: string) => onServer(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);

describeWith(['postgres'], 'ensureDatabase (the database DATABASE_URL names, on a real PostgreSQL)', () => {
  const made: string[] = [];
  const fresh = () => {
    const name = uniqueName('ensuredb').toLowerCase();
    made.push(name);
    return name;
  };
  afterAll(async () => {
    for (const name of made) await onServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}"`));
  });

  it('creates a database the server does not have, says so once, and leaves it alone the second time', async () => {
    const name = fresh();
    const lines: string[] = [];
    expect(await databaseExists(name)).toBe(false);
    await expect(ensureDatabase(urlFor(name), (l) => lines.push(l))).resolves.toBe(true);
    expect(await databaseExists(name)).toBe(true);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^created database ${name} on 127\\.0\\.0\\.1:\\d+$`))]);
    // The database is usable with the URL as given.
    const c = new Client({ connectionString: urlFor(name), connectionTimeoutMillis: 5000 });
    await c.connect();
    await expect(c.query('SELECT current_database() AS db')).resolves.toMatchObject({ rows: [{ db: name }] });
    await c.end();
    await expect(ensureDatabase(urlFor(name), (l) => lines.push(l))).resolves.toBe(false);
    expect(lines).toHaveLength(1);
  });

  it('does nothing for a database that exists', async () => {
    const lines: string[] = [];
    await expect(ensureDatabase(serverUrl('postgres'), (l) => lines.push(l))).resolves.toBe(false);
    expect(lines).toEqual([]);
  });

  it('two runs at once (two migrate jobs) both succeed and one of them creates it', async () => {
    const name = fresh();
    const results = await Promise.all([ensureDatabase(urlFor(name)), ensureDatabase(urlFor(name))]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await databaseExists(name)).toBe(true);
  });

  it('a user who may not create databases gets an error naming the database and both ways out; nothing is created', async () => {
    const role = uniqueName('nocreatedb').toLowerCase();
    const name = fresh();
    await onServer((c) => c.query(`CREATE ROLE "${role}" LOGIN NOCREATEDB`));
    try {
      const err = await ensureDatabase(urlFor(name, role)).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toBe(
        `database "${name}" does not exist on 127.0.0.1:${new URL(serverUrl('postgres')).port || '5432'} and user "${role}" may not create databases: ` +
          `create it (createdb ${name}, or CREATE DATABASE as a superuser) or set DATABASE_URL to a database that exists`,
      );
      expect(await databaseExists(name)).toBe(false);
    } finally {
      await onServer((c) => c.query(`DROP ROLE IF EXISTS "${role}"`));
    }
  });

  it('other connection failures are passed on as they are (nothing listens on the port)', async () => {
    await expect(ensureDatabase('postgres://postgres@127.0.0.1:1/whatever')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
