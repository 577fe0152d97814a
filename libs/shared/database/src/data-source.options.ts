import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { AppConfig } from '@lookup/shared/config';

type Entities = MixedList<string | (new () => unknown) | EntitySchema>;
type Migrations = MixedList<string | (new () => unknown)>;

/**
 * PostgreSQL in the distributed profile, SQLite (better-sqlite3) standalone. Migrations are
 * written with TypeORM's schema builder so one set serves both.
 */
export function dataSourceOptions(config: AppConfig, entities: Entities, migrations: Migrations, name?: string): DataSourceOptions {
  if (config.PROFILE === 'distributed') {
    return {
      type: 'postgres',
      url: config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      entities,
      migrations,
      migrationsRun: true,
      migrationsTableName: `migrations_${name ?? 'default'}`,
      synchronize: false,
      connectTimeoutMS: 5000,
      extra: { max: 20, statement_timeout: 10000, query_timeout: 10000 },
    };
  }
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: config.sqlitePath,
    entities,
    migrations,
    migrationsRun: true,
    migrationsTableName: `migrations_${name ?? 'default'}`,
    synchronize: false,
    enableWAL: true,
    timeout: 5000,
  };
}
