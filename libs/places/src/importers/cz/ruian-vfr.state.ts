import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import type { VfrAddress, VfrBuilding, VfrEnded, VfrRecord, VfrUnit } from './ruian-vfr.reader';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS vfr_units (
  type TEXT NOT NULL, kod TEXT NOT NULL, tx INTEGER NOT NULL, name TEXT NOT NULL, parent TEXT,
  PRIMARY KEY (type, kod)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vfr_buildings (
  kod TEXT PRIMARY KEY, tx INTEGER NOT NULL, kind_code TEXT, part TEXT, momc TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vfr_addresses (kod TEXT PRIMARY KEY, tx INTEGER NOT NULL, hash TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vfr_pending (kod TEXT PRIMARY KEY, tx INTEGER NOT NULL, rec TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vfr_batches (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, records INTEGER NOT NULL, upserts INTEGER NOT NULL,
  deletes INTEGER NOT NULL, applied_at TEXT NOT NULL
);`;

export interface VfrBuildingRow {
  kod: string;
  kindCode: string | null;
  part: string | null;
  momc: string | null;
}

export interface VfrUnitRow {
  name: string;
  parent: string | null;
}

/**
 * What incremental RUIAN changes remember between runs, in a small SQLite file beside the
 * store: the buildings, streets, municipality parts, municipalities and MOMC/MOP seen in change
 * files (what an address point refers to by code only), and per address the last applied
 * `IdTransakce` and a hash of the document written (null once deleted).
 *
 * One batch is one SQLite transaction, begun before the file is read and committed only after
 * the index holds the writes: a corrupt file or a crash leaves the state as it was, and the
 * next attempt repeats the same writes.
 */
export class RuianVfrState {
  private db: SqliteDatabase | null = null;

  constructor(readonly path: string) {}

  open(): this {
    if (!this.db) {
      this.db = openSqlite(this.path);
      this.db.exec(SCHEMA);
    }
    return this;
  }

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('RuianVfrState used before open()');
    return this.db;
  }

  begin(): void {
    this.conn.exec('BEGIN IMMEDIATE');
    this.conn.exec('DELETE FROM vfr_pending');
  }

  rollback(): void {
    if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
  }

  commit(batch: { name: string; records: number; upserts: number; deletes: number }): void {
    const db = this.conn;
    db.exec('DELETE FROM vfr_pending');
    db.prepare('INSERT INTO vfr_batches (name, records, upserts, deletes, applied_at) VALUES (?, ?, ?, ?, ?)').run(batch.name, batch.records, batch.upserts, batch.deletes, new Date().toISOString());
    db.exec('COMMIT');
  }

  /**
   * Takes one record of the batch: references are remembered at once (a later one in the same
   * file must see them), addresses and deletions are staged (the newest transaction per address
   * wins; at the same transaction a deletion wins) and applied after the whole file was read.
   */
  stage(r: VfrRecord): void {
    switch (r.type) {
      case 'address':
        return this.pend(r.kod, r.tx, r.ended ? null : r);
      case 'ended':
        return this.ended(r);
      case 'building':
        return this.building(r);
      default:
        return this.unit(r);
    }
  }

  private pend(kod: string, tx: number, rec: VfrAddress | null): void {
    this.conn
      .prepare(
        `INSERT INTO vfr_pending (kod, tx, rec) VALUES (?, ?, ?)
         ON CONFLICT(kod) DO UPDATE SET tx = excluded.tx, rec = excluded.rec
         WHERE excluded.tx > vfr_pending.tx OR (excluded.tx = vfr_pending.tx AND excluded.rec IS NULL)`,
      )
      .run(kod, tx, rec ? JSON.stringify(rec) : null);
  }

  private ended(r: VfrEnded): void {
    const db = this.conn;
    if (r.elementType === 'AD') return this.pend(r.kod, r.tx, null);
    if (r.elementType === 'SO') db.prepare('DELETE FROM vfr_buildings WHERE kod = ? AND tx <= ?').run(r.kod, r.tx);
    if (r.elementType === 'UL') db.prepare(`DELETE FROM vfr_units WHERE type = 'street' AND kod = ? AND tx <= ?`).run(r.kod, r.tx);
  }

  private building(r: VfrBuilding): void {
    const db = this.conn;
    if (r.ended) {
      db.prepare('DELETE FROM vfr_buildings WHERE kod = ? AND tx <= ?').run(r.kod, r.tx);
      return;
    }
    db.prepare(
      `INSERT INTO vfr_buildings (kod, tx, kind_code, part, momc) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(kod) DO UPDATE SET tx = excluded.tx, kind_code = excluded.kind_code, part = excluded.part, momc = excluded.momc
       WHERE excluded.tx >= vfr_buildings.tx`,
    ).run(r.kod, r.tx, r.kindCode, r.partKod, r.momcKod);
  }

  private unit(r: VfrUnit): void {
    const db = this.conn;
    if (r.ended) {
      db.prepare('DELETE FROM vfr_units WHERE type = ? AND kod = ? AND tx <= ?').run(r.type, r.kod, r.tx);
      return;
    }
    db.prepare(
      `INSERT INTO vfr_units (type, kod, tx, name, parent) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(type, kod) DO UPDATE SET tx = excluded.tx, name = excluded.name, parent = excluded.parent
       WHERE excluded.tx >= vfr_units.tx`,
    ).run(r.type, r.kod, r.tx, r.name, r.parentKod);
  }

  /** Staged addresses after `afterKod`, in code order: null `rec` is a deletion. */
  pending(afterKod: string, limit: number): { kod: string; tx: number; rec: VfrAddress | null }[] {
    const rows = this.conn.prepare('SELECT kod, tx, rec FROM vfr_pending WHERE kod > ? ORDER BY kod LIMIT ?').all(afterKod, limit) as { kod: string; tx: number; rec: string | null }[];
    return rows.map((r) => ({ kod: r.kod, tx: r.tx, rec: r.rec ? (JSON.parse(r.rec) as VfrAddress) : null }));
  }

  address(kod: string): { tx: number; hash: string | null } | undefined {
    return this.conn.prepare('SELECT tx, hash FROM vfr_addresses WHERE kod = ?').get(kod) as { tx: number; hash: string | null } | undefined;
  }

  setAddress(kod: string, tx: number, hash: string | null): void {
    this.conn.prepare('INSERT OR REPLACE INTO vfr_addresses (kod, tx, hash) VALUES (?, ?, ?)').run(kod, tx, hash);
  }

  buildingOf(kod: string): VfrBuildingRow | undefined {
    const r = this.conn.prepare('SELECT kod, kind_code, part, momc FROM vfr_buildings WHERE kod = ?').get(kod) as { kod: string; kind_code: string | null; part: string | null; momc: string | null } | undefined;
    return r && { kod: r.kod, kindCode: r.kind_code, part: r.part, momc: r.momc };
  }

  unitOf(type: VfrUnit['type'], kod: string): VfrUnitRow | undefined {
    return this.conn.prepare('SELECT name, parent FROM vfr_units WHERE type = ? AND kod = ?').get(type, kod) as VfrUnitRow | undefined;
  }

  batches(): { name: string; records: number; upserts: number; deletes: number }[] {
    return this.conn.prepare('SELECT name, records, upserts, deletes FROM vfr_batches ORDER BY id').all() as { name: string; records: number; upserts: number; deletes: number }[];
  }

  close(): void {
    this.rollback();
    this.db?.close();
    this.db = null;
  }
}
