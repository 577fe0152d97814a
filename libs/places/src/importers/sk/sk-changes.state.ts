import { existsSync } from 'node:fs';
import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { SK_CATALOGUE_TYPES } from './sk-catalogue.builder';
import type { RegisterChange } from './sk-register-xml.reader';

/** The leaves the address fold reads of an entrance, building or street; the rest is not kept. */
const ADDRESS_FIELDS = ['StreetName', 'PropertyRegistrationNumber', 'BuildingNumber', 'PostalCode', 'AddressPoint.BLH.AxisB', 'AddressPoint.BLH.AxisL'];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sk_records (
  type TEXT NOT NULL, object_id TEXT NOT NULL, version_id INTEGER NOT NULL, op TEXT NOT NULL, valid_to TEXT NOT NULL,
  rec TEXT NOT NULL,
  PRIMARY KEY (type, object_id, version_id, op, valid_to)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sk_docs (place_id TEXT PRIMARY KEY, hash TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sk_batches (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, records INTEGER NOT NULL, new_records INTEGER NOT NULL,
  upserts INTEGER NOT NULL, deletes INTEGER NOT NULL, applied_at TEXT NOT NULL
);`;

export interface AppliedBatch {
  name: string;
  records: number;
  newRecords: number;
  upserts: number;
  deletes: number;
}

/**
 * What incremental Slovak change batches need to remember between runs: every register record
 * applied so far (compacted to what the fold reads; the fold picks the current version, so
 * history does no harm and re-applying a record is a no-op) and a hash of every document the
 * index holds from them. Kept in a small SQLite file beside the store; the index itself is
 * never read back. The file is made by the first commit, not by open(): a dry run, or a run
 * that failed before its commit, leaves none behind, so the next batch is still met as the first
 * one (the runner folds it with the live address file only while there is no state file).
 */
export class SkChangeState {
  private db: SqliteDatabase | null = null;
  /** Open on an empty in-memory database because the file does not exist (yet). */
  private unsaved = false;

  constructor(readonly path: string) {}

  open(): this {
    if (!this.db) {
      this.unsaved = !existsSync(this.path);
      this.db = openSqlite(this.unsaved ? ':memory:' : this.path);
      this.db.exec(SCHEMA);
    }
    return this;
  }

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('SkChangeState used before open()');
    return this.db;
  }

  /** Every stored record, in no particular order (the fold does not depend on it). */
  *records(): Generator<RegisterChange> {
    for (const row of this.conn.prepare('SELECT rec FROM sk_records').iterate() as Iterable<{ rec: string }>) yield JSON.parse(row.rec) as RegisterChange;
  }

  /** Which of these records the state lacks. */
  unknown(records: RegisterChange[]): RegisterChange[] {
    const has = this.conn.prepare('SELECT 1 FROM sk_records WHERE type = ? AND object_id = ? AND version_id = ? AND op = ? AND valid_to = ?');
    return records.filter((r) => !has.get(r.type, r.objectId, r.versionId, r.operation, r.validTo ?? ''));
  }

  docHashes(): Map<string, string> {
    const rows = this.conn.prepare('SELECT place_id, hash FROM sk_docs').all() as { place_id: string; hash: string }[];
    return new Map(rows.map((r) => [r.place_id, r.hash]));
  }

  batches(): AppliedBatch[] {
    return this.conn.prepare('SELECT name, records, new_records AS newRecords, upserts, deletes FROM sk_batches ORDER BY id').all() as AppliedBatch[];
  }

  /** Called only after the index holds the documents: one transaction, so a crash before it just repeats the batch. */
  commit(records: RegisterChange[], upserted: [string, string][], deleted: string[], batch: AppliedBatch): void {
    if (this.unsaved) {
      // Nothing was in the in-memory state (there was no file): the file starts here.
      this.conn.close();
      this.db = openSqlite(this.path);
      this.db.exec(SCHEMA);
      this.unsaved = false;
    }
    const db = this.conn;
    const addRec = db.prepare('INSERT OR IGNORE INTO sk_records (type, object_id, version_id, op, valid_to, rec) VALUES (?, ?, ?, ?, ?, ?)');
    const setDoc = db.prepare('INSERT OR REPLACE INTO sk_docs (place_id, hash) VALUES (?, ?)');
    const delDoc = db.prepare('DELETE FROM sk_docs WHERE place_id = ?');
    db.transaction(() => {
      for (const r of records) addRec.run(r.type, r.objectId, r.versionId, r.operation, r.validTo ?? '', JSON.stringify(compactRecord(r)));
      for (const [id, hash] of upserted) setDoc.run(id, hash);
      for (const id of deleted) delDoc.run(id);
      db.prepare('INSERT INTO sk_batches (name, records, new_records, upserts, deletes, applied_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        batch.name, batch.records, batch.newRecords, batch.upserts, batch.deletes, new Date().toISOString(),
      );
    })();
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}

/** Catalogue records whole (a few thousand); address records with only the leaves the fold reads. */
export function compactRecord(r: RegisterChange): RegisterChange {
  if ((SK_CATALOGUE_TYPES as readonly string[]).includes(r.type)) return r;
  const fields: Record<string, string> = {};
  for (const k of ADDRESS_FIELDS) if (r.fields[k] !== undefined) fields[k] = r.fields[k]!;
  return { ...r, fields };
}
