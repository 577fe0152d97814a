import 'reflect-metadata';
import { DataSource, DataSourceOptions } from 'typeorm';
import { loadConfig } from '@lookup/shared/config';
import { keysDataSourceOptions } from '@lookup/gateway';
import { intlDataSourceOptions } from '@lookup/intl';
import { runMain } from '@lookup/shared/runtime';

/**
 * `npm run migrate` / the Kubernetes migrations Job: applies every area's TypeORM migrations
 * once, before the apps roll out, so several replicas starting together never race on DDL.
 * (The apps still run pending migrations at start, which is then a no-op.)
 */
const AREAS: Array<{ name: string; options: (c: ReturnType<typeof loadConfig>) => DataSourceOptions }> = [
  { name: 'gateway (keys, quotas)', options: keysDataSourceOptions },
  { name: 'intl (projects, phrases, translations)', options: intlDataSourceOptions },
];

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
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
