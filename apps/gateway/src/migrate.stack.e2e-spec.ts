import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createTestSchema, describeWith, ensureBuilt } from '@lookup/shared/testing';

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
});
