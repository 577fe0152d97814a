import { DataSource, DataSourceOptions } from 'typeorm';
import { loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, tempDir } from '@lookup/shared/testing';
import { CreateApiKeys1763700000000, KeyPrefixAndRateLimits1764000000000 } from './keys.migration';
import { keysDataSourceOptions } from './keys.store';

/**
 * Issue 16: rows written before key_prefix was narrowed kept 8 plain characters (all of `demo`,
 * 8 of `seed-key-1`). The migration keeps `lk_` + 4 random characters of generated keys and
 * nothing of chosen ones, on both databases.
 */
async function migrateOldRows(options: DataSourceOptions): Promise<string[]> {
  const before = new DataSource({ ...options, name: undefined, migrations: [CreateApiKeys1763700000000], entities: [] } as DataSourceOptions);
  await before.initialize();
  const schema = (options as { schema?: string }).schema;
  const table = schema ? `"${schema}".api_keys` : 'api_keys';
  const p = options.type === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  for (const [hash, prefix] of [['h1', 'demo'], ['h2', 'seed-key'], ['h3', 'lk_Ab3dEf']]) {
    await before.query(`INSERT INTO ${table} (name, key_hash, key_prefix, monthly_search_limit, monthly_query_limit) VALUES ('old', ${p[0]}, ${p[1]}, 1, 1)`, [hash, prefix]);
  }
  await before.destroy();
  const after = new DataSource({ ...options, name: undefined } as DataSourceOptions);
  await after.initialize(); // runs the pending migration
  const rows = (await after.query(`SELECT key_prefix FROM ${table} ORDER BY key_hash`)) as { key_prefix: string }[];
  await after.destroy();
  return rows.map((r) => r.key_prefix);
}

describe('key_prefix migration (SQLite)', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  it('keeps 4 random characters of generated keys and nothing of chosen ones', async () => {
    expect(await migrateOldRows(keysDataSourceOptions(loadConfig({}, { DATA_DIR: dir.path })))).toEqual(['', '', 'lk_Ab3d']);
  });
});

describeWith(['postgres'], 'key_prefix migration (PostgreSQL)', () => {
  it('keeps 4 random characters of generated keys and nothing of chosen ones', async () => {
    const pg = await createTestSchema('keymig');
    try {
      const options = keysDataSourceOptions(loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema }));
      expect(await migrateOldRows(options)).toEqual(['', '', 'lk_Ab3d']);
    } finally {
      await pg.drop();
    }
  });
});

/** Issues 19/20: counters written before leases keep their count, with nothing out on lease. */
async function migrateOldUsage(options: DataSourceOptions): Promise<unknown[]> {
  const before = new DataSource({ ...options, name: undefined, migrations: [CreateApiKeys1763700000000, KeyPrefixAndRateLimits1764000000000], entities: [] } as DataSourceOptions);
  await before.initialize();
  const schema = (options as { schema?: string }).schema;
  const t = (name: string) => (schema ? `"${schema}".${name}` : name);
  await before.query(`INSERT INTO ${t('api_keys')} (name, key_hash, key_prefix, monthly_search_limit, monthly_query_limit) VALUES ('old', 'h9', '', 10, 10)`);
  await before.query(`INSERT INTO ${t('api_key_usage')} (key_id, month, kind, count) SELECT id, '2026-01', 'search', 7 FROM ${t('api_keys')} WHERE key_hash = 'h9'`);
  await before.destroy();
  const after = new DataSource({ ...options, name: undefined } as DataSourceOptions);
  await after.initialize();
  const rows = (await after.query(`SELECT count, leased, granted FROM ${t('api_key_usage')}`)) as Record<string, unknown>[];
  await after.destroy();
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])));
}

describe('quota lease migration (SQLite)', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  it('keeps the counts, nothing out on lease', async () => {
    expect(await migrateOldUsage(keysDataSourceOptions(loadConfig({}, { DATA_DIR: dir.path })))).toEqual([{ count: 7, leased: 0, granted: 0 }]);
  });
});

describeWith(['postgres'], 'quota lease migration (PostgreSQL)', () => {
  it('keeps the counts, nothing out on lease', async () => {
    const pg = await createTestSchema('leasemig');
    try {
      const options = keysDataSourceOptions(loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema }));
      expect(await migrateOldUsage(options)).toEqual([{ count: 7, leased: 0, granted: 0 }]);
    } finally {
      await pg.drop();
    }
  });
});
