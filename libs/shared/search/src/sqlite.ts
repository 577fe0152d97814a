import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** One file per store; WAL so readers never wait for an import. */
export function openSqlite(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Runs SQL on a database file in a worker thread with its own connection, so long statements
 * (index builds, FTS merges, ANALYZE at the end of an import) do not hold this thread's event
 * loop: the standalone process keeps answering while a new version is finished. The caller's
 * own connection to the file must be idle meanwhile; it sees the result afterwards.
 */
export function execOffThread(path: string, sql: string[]): Promise<void> {
  const code = `
    const { workerData } = require('node:worker_threads');
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(workerData.path, { timeout: 5000 });
    try { for (const s of workerData.sql) db.exec(s); } finally { db.close(); }`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { path, sql } });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`SQL thread exited with code ${code}`))));
  });
}
