import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { dataSourceOptions } from '@lookup/shared/database';
import { DataSource, DataSourceOptions, EntityManager } from 'typeorm';
import { INTL_ENTITIES, ProjectEntity } from './intl.entities';
import { CreateIntl1763800000000 } from './intl.migration';

/** The intl TypeORM connection name (its own migrations table, same database as the gateway's). */
export const INTL_DB = 'intl';

/**
 * PostgreSQL: the gateway's database, own migrations table. SQLite: a file of its own, because
 * two better-sqlite3 connections of one process to one file stall each other: a connection
 * waiting for the lock sleeps synchronously, so the holder (an intl transaction spanning
 * awaits) can never finish while the gateway counts usage.
 */
export function intlDataSourceOptions(config: AppConfig): DataSourceOptions {
  const options = { ...dataSourceOptions(config, INTL_ENTITIES, [CreateIntl1763800000000], INTL_DB), name: INTL_DB };
  if (options.type !== 'better-sqlite3') return options;
  const database = intlSqlitePath(config);
  mkdirSync(dirname(database), { recursive: true });
  return { ...options, database };
}

export function intlSqlitePath(config: AppConfig): string {
  return config.INTL_SQLITE_PATH ?? join(dirname(config.sqlitePath), 'intl.sqlite');
}

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * A write transaction. better-sqlite3 is one connection and TypeORM does not queue
 * transactions on it (two concurrent BEGINs fail), so on SQLite they run one after another;
 * on PostgreSQL each gets a pooled connection and row locks do the ordering.
 */
export function inTransaction<T>(ds: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
  if (ds.options.type === 'postgres') return ds.transaction(work);
  const prev = sqliteQueues.get(ds) ?? Promise.resolve();
  const run = prev
    .catch(() => undefined)
    .then(() =>
      ds.transaction(async (em) => {
        // BEGIN IMMEDIATE in effect: a write first takes the write lock (waiting up to the busy
        // timeout). A deferred transaction that reads first fails with SQLITE_BUSY_SNAPSHOT when
        // another process (the projects CLI) writes in between.
        await em.query(`UPDATE ${em.getRepository(ProjectEntity).metadata.tablePath} SET id = id WHERE 0`);
        return work(em);
      }),
    );
  sqliteQueues.set(ds, run.catch(() => undefined));
  return run;
}

export function isPostgres(ds: DataSource | EntityManager): boolean {
  const conn = ds instanceof DataSource ? ds : ds.connection;
  return conn.options.type === 'postgres';
}
