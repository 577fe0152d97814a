import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createTestSchema, describeWith, ensureBuilt, postgresUrlFor, serverUrl, uniqueName } from '@lookup/shared/testing';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');
const MIGRATE = 'dist/apps/gateway/src/migrate.js';

/** The migrations Job's entry point, compiled, against a fresh schema: applies every area once, then nothing. */
describeWith(['postgres'], 'migrate entry point (the Kubernetes migrations Job)', () => {
  let pg: Awaited<ReturnType<typeof createTestSchema>>;

  beforeAll(async () => {
    ensureBuilt(ROOT, [MIGRATE]);
    pg = await createTestSchema('migrate');
  }, 240000);
  afterAll(() => pg?.drop());

  const migrate = () =>
    run(process.execPath, ['-r', './tools/paths.js', MIGRATE], {
      cwd: ROOT,
      timeout: 60000,
      env: { PATH: process.env['PATH'], DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, LOG_LEVEL: 'error' },
    });

  it('creates the tables of every area, records them, and is a no-op the second time', async () => {
    const first = await migrate();
    expect(first.stdout).toMatch(/gateway \(keys, quotas\): CreateApiKeys\d+/);
    expect(first.stdout).toMatch(/intl \(projects, phrases, translations\): \w+/);
    const db = new Client({ connectionString: pg.url, connectionTimeoutMillis: 5000 });
    await db.connect();
    try {
      const tables = await db.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [pg.schema]);
      const names = tables.rows.map((r) => r.table_name);
      expect(names).toEqual(expect.arrayContaining(['api_keys', 'api_key_usage', 'migrations_gateway', 'migrations_intl']));
    } finally {
      await db.end();
    }
    const second = await migrate();
    expect(second.stdout.trim().split('\n')).toEqual(['gateway (keys, quotas): up to date', 'intl (projects, phrases, translations): up to date']);
  }, 120000);

  it('on a server without the database DATABASE_URL names (a first `lookup stack` on a fresh PostgreSQL), creates it, then migrates', async () => {
    const name = uniqueName('migratedb').toLowerCase();
    const url = new URL(postgresUrlFor(name));
    const admin = new Client({ connectionString: serverUrl('postgres'), connectionTimeoutMillis: 5000 });
    await admin.connect();
    try {
      const out = await run(process.execPath, ['-r', './tools/paths.js', MIGRATE], {
        cwd: ROOT,
        timeout: 60000,
        env: { PATH: process.env['PATH'], DATABASE_URL: url.href, LOG_LEVEL: 'error' },
      });
      const lines = out.stdout.trim().split('\n');
      expect(lines[0]).toMatch(new RegExp(`^created database ${name} on 127\\.0\\.0\\.1:\\d+$`));
      expect(lines[1]).toMatch(/^gateway \(keys, quotas\): CreateApiKeys\d+/);
      const db = new Client({ connectionString: url.href, connectionTimeoutMillis: 5000 });
      await db.connect();
      try {
        const tables = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
        expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['api_keys', 'api_key_usage', 'migrations_gateway', 'migrations_intl']));
      } finally {
        await db.end();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      await admin.end();
    }
  }, 120000);
});
