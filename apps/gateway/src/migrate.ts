import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { loadConfig } from '@lookup/shared/config';
import { ensureDatabase } from '@lookup/shared/database';
import { keysDataSourceOptions } from '@lookup/gateway';
import { intlDataSourceOptions } from '@lookup/intl';
import { runMain } from '@lookup/shared/runtime';

/**
 * A DATABASE_SCHEMA that does not exist yet: TypeORM neither creates it nor says why the first
 * query fails ("schema ... does not exist" from the migrations table), so the schema comes first.
 */
async function ensureSchema(url: string, schema: string | undefined): Promise<void> {
  if (!schema) return;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000, statement_timeout: 10000 });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * `npm run migrate` / the Kubernetes migrations Job: applies every area's TypeORM migrations
 * once, before the apps roll out, so several replicas starting together never race on DDL. The
 * stack runner (`lookup stack`) runs it before any app, so a fresh DATABASE_SCHEMA, and a
 * database the server does not have yet (when the user may create one), just work.
 * (The apps still run pending migrations at start, which is then a no-op.)
 */
const AREAS: Array<{ name: string; options: (c: ReturnType<typeof loadConfig>) => DataSourceOptions }> = [
  { name: 'gateway (keys, quotas)', options: keysDataSourceOptions },
  { name: 'intl (projects, phrases, translations)', options: intlDataSourceOptions },
];

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  // eslint-disable-next-line no-console
  await ensureDatabase(config.DATABASE_URL, (line) => console.log(line));
  await ensureSchema(config.DATABASE_URL, config.DATABASE_SCHEMA);
  for (const area of AREAS) {
    const ds = new DataSource({ ...area.options(config), migrationsRun: false } as DataSourceOptions);
    await ds.initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      // eslint-disable-next-line no-console
      console.log(`${area.name}: ${applied.length ? applied.map((m) => m.name).join(', ') : 'up to date'}`);
    } finally {
      await ds.destroy();
    }
  }
});
