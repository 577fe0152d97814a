import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { processAlive } from '@lookup/shared/search';

/** Who holds a data directory's import lock. */
export interface LockHolder {
  pid: number;
  startedAt: string;
  command: string;
}

/** A second import into a data directory while one runs: refused, naming the holder. */
export class ImportLockedError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(`another import is running into this data directory (pid ${holder.pid}, since ${holder.startedAt}: ${holder.command}); wait for it to finish, or stop that process (lock: ${path})`);
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return Number.isInteger(h.pid) ? h : null;
  } catch {
    return null;
  }
}

/** The live holder of the lock, or null when there is none or it died (a stale lock). */
export function lockHolder(path: string): LockHolder | null {
  const h = readHolder(path);
  return h && processAlive(h.pid) ? h : null;
}

/**
 * One import at a time per data directory: an exclusive-create lock file with the holder's pid.
 * A lock whose process is gone (killed, crashed) is taken over; `onTakeOver` then removes what
 * that import left behind. Release it in a `finally`.
 */
export function acquireImportLock(path: string, command: string, onTakeOver?: () => void): { release(): void } {
  mkdirSync(dirname(path), { recursive: true });
  const me: LockHolder = { pid: process.pid, startedAt: new Date().toISOString(), command };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(me), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const holder = readHolder(path);
      if (holder && processAlive(holder.pid)) throw new ImportLockedError(path, holder);
      rmSync(path, { force: true });
      onTakeOver?.();
    }
  }
  return {
    release: () => {
      if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

/** The lock of the data directory a standalone store file lives in (`<DATA_DIR>/import.lock` by default). */
export function importLockPath(sqlitePath: string): string {
  return `${dirname(sqlitePath)}/import.lock`;
}

/**
 * The data directory's import lock, where the profile's store needs one: SQLite (standalone),
 * one file written by one import at a time. None for a dry run (it writes nothing) nor for a store
 * with leases of its own (`lockImports`, OpenSearch: one per country across processes, taken by
 * the runner; a data directory's lock would make an LI import wait for CZ).
 */
export function dataDirImportLock(store: { lockImports?: unknown }, sqlitePath: string, command: string, opts: { dryRun?: boolean } = {}): { release(): void } | null {
  if (opts.dryRun || store.lockImports) return null;
  return acquireImportLock(importLockPath(sqlitePath), command);
}
