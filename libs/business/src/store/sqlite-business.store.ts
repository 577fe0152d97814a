import { existsSync, renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { BusinessDoc } from '../domain/business.doc';
import { CountryCode } from '@lookup/contracts';
import { BusinessFilter, BulkLoadReport, BusinessStore, BusinessVersionBuild, BusinessVersionInfo } from './business.store';
import { indexedFields, prefixEnd } from './business-index';

const TABLE = `
CREATE TABLE IF NOT EXISTS business (
  id INTEGER PRIMARY KEY,
  business_id TEXT NOT NULL UNIQUE,
  country TEXT NOT NULL,
  name_key TEXT NOT NULL,
  cin TEXT NOT NULL,
  cin_key TEXT NOT NULL,
  active INTEGER NOT NULL,
  doc TEXT NOT NULL
);`;
/** The dataset version each country's register comes from (written by the pipeline). */
const VERSIONS = `CREATE TABLE IF NOT EXISTS dataset_versions (country TEXT PRIMARY KEY, version TEXT NOT NULL);`;

const SCHEMA = `${TABLE}
${VERSIONS}
CREATE INDEX IF NOT EXISTS business_name_key ON business (name_key);
CREATE INDEX IF NOT EXISTS business_cin ON business (cin);
CREATE INDEX IF NOT EXISTS business_cin_key ON business (cin_key);
CREATE VIRTUAL TABLE IF NOT EXISTS business_fts USING fts5(name_key, content='', contentless_delete=1, prefix='1 2 3', tokenize='unicode61 remove_diacritics 0');
`;

function removeDbFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) if (existsSync(path + suffix)) rmSync(path + suffix);
}

/** FTS5 phrase for one token; tokens are [a-z0-9] already, quoting keeps the syntax safe. */
const phrase = (t: string, prefix: boolean) => `"${t.replace(/"/g, '')}"${prefix ? '*' : ''}`;

/**
 * Standalone engine: one SQLite file. A contentless FTS5 table holds the name tokens (rowid =
 * business.id); B-tree indexes answer name-prefix and id-number ranges.
 */
export class SqliteBusinessStore implements BusinessStore {
  readonly engine = 'sqlite' as const;
  private db: SqliteDatabase | null = null;

  constructor(private readonly path: string) {}

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('SqliteBusinessStore used before init()');
    return this.db;
  }

  async init(): Promise<void> {
    if (this.db) return;
    this.db = openSqlite(this.path);
    this.db.exec(SCHEMA);
  }

  private writeBatch(docs: BusinessDoc[]): void {
    const db = this.conn;
    const existing = db.prepare('SELECT id FROM business WHERE business_id = ?').pluck();
    const delFts = db.prepare('DELETE FROM business_fts WHERE rowid = ?');
    const upsert = db.prepare(
      `INSERT INTO business (business_id, country, name_key, cin, cin_key, active, doc) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(business_id) DO UPDATE SET country=excluded.country, name_key=excluded.name_key, cin=excluded.cin,
         cin_key=excluded.cin_key, active=excluded.active, doc=excluded.doc RETURNING id`,
    ).pluck();
    const insFts = db.prepare('INSERT INTO business_fts (rowid, name_key) VALUES (?, ?)');
    for (const d of docs) {
      const f = indexedFields(d);
      const old = existing.get(d.business_id) as number | undefined;
      if (old !== undefined) delFts.run(old);
      const id = upsert.get(d.business_id, d.country, f.name_key, d.cin, f.cin_key, f.active ? 1 : 0, JSON.stringify(d)) as number;
      insFts.run(id, f.name_key);
    }
  }

  async upsert(docs: BusinessDoc[]): Promise<void> {
    this.conn.transaction(() => this.writeBatch(docs))();
  }

  /**
   * The whole register goes into a new file (no journal: it is not live yet), indexes and FTS
   * built once at the end, then renamed over the old one; the connection is swapped in the
   * same synchronous step, so a query sees the old register or the new, never a mix. A failed
   * import leaves the old file untouched. Another process holding the old file keeps reading
   * the old register until it reopens.
   */
  async replaceAll(batches: AsyncIterable<BusinessDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = Date.now();
    const next = `${this.path}.import`;
    removeDbFiles(next);
    const db = new Database(next);
    let n = 0;
    try {
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec(TABLE);
      const ins = db.prepare('INSERT OR REPLACE INTO business (business_id, country, name_key, cin, cin_key, active, doc) VALUES (?, ?, ?, ?, ?, ?, ?)');
      db.exec('BEGIN');
      for await (const batch of batches) {
        for (const d of batch) {
          const f = indexedFields(d);
          ins.run(d.business_id, d.country, f.name_key, d.cin, f.cin_key, f.active ? 1 : 0, JSON.stringify(d));
        }
        n += batch.length;
        onProgress?.(n);
      }
      db.exec('COMMIT');
      db.exec(SCHEMA);
      db.exec('INSERT INTO business_fts (rowid, name_key) SELECT id, name_key FROM business');
      db.exec("INSERT INTO business_fts(business_fts) VALUES('optimize')");
      db.close();
    } catch (err) {
      if (db.open) db.close();
      removeDbFiles(next);
      throw err;
    }
    this.db?.close();
    // A cleanly closed connection leaves no WAL; one left by a crash belongs to the old file.
    for (const suffix of ['-wal', '-shm']) rmSync(this.path + suffix, { force: true });
    renameSync(next, this.path);
    this.db = null;
    await this.init();
    return { docs: n, seconds: (Date.now() - t0) / 1000 };
  }

  async liveVersion(country: CountryCode): Promise<BusinessVersionInfo | null> {
    const docs = this.conn.prepare('SELECT count(*) FROM business WHERE country = ?').pluck().get(country) as number;
    const version = this.conn.prepare('SELECT version FROM dataset_versions WHERE country = ?').pluck().get(country) as string | undefined;
    if (version) return { version, docs };
    return docs > 0 ? { version: 'legacy', docs } : null;
  }

  /**
   * A new version of one country: like replaceAll, a whole new file (the other countries' rows
   * copied from the live file), renamed over the live one at commit; queries keep the same
   * tables and indexes, so they are as fast as before.
   */
  async beginVersion(country: CountryCode): Promise<BusinessVersionBuild> {
    const next = `${this.path}.import`;
    removeDbFiles(next);
    const db = new Database(next);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(TABLE);
    db.exec(VERSIONS);
    db.exec('BEGIN');
    const ins = db.prepare('INSERT OR REPLACE INTO business (business_id, country, name_key, cin, cin_key, active, doc) VALUES (?, ?, ?, ?, ?, ?, ?)');
    let carried = 0;
    try {
      const rows = this.conn.prepare('SELECT business_id, country, name_key, cin, cin_key, active, doc FROM business WHERE country <> ?').raw().iterate(country);
      for (const r of rows as Iterable<unknown[]>) {
        ins.run(...r);
        carried++;
      }
      const versions = this.conn.prepare('SELECT country, version FROM dataset_versions WHERE country <> ?').raw().all(country) as unknown[][];
      for (const v of versions) db.prepare('INSERT INTO dataset_versions (country, version) VALUES (?, ?)').run(...v);
    } catch (err) {
      db.close();
      removeDbFiles(next);
      throw err;
    }
    const version = new Date().toISOString().replace(/[^0-9]/g, '');
    db.prepare('INSERT OR REPLACE INTO dataset_versions (country, version) VALUES (?, ?)').run(country, version);
    let done = false;
    let sealed = false;
    const abort = async () => {
      if (done) return;
      done = true;
      if (db.open) db.close();
      removeDbFiles(next);
    };
    return {
      version,
      carried,
      async load(batches, onProgress) {
        const t0 = Date.now();
        let n = 0;
        for await (const batch of batches) {
          for (const d of batch) {
            const f = indexedFields(d);
            ins.run(d.business_id, d.country, f.name_key, d.cin, f.cin_key, f.active ? 1 : 0, JSON.stringify(d));
          }
          n += batch.length;
          onProgress?.(n);
        }
        return { docs: n, seconds: (Date.now() - t0) / 1000 };
      },
      async seal() {
        db.exec('COMMIT');
        db.exec(SCHEMA);
        db.exec('INSERT INTO business_fts (rowid, name_key) SELECT id, name_key FROM business');
        db.exec("INSERT INTO business_fts(business_fts) VALUES('optimize')");
        db.exec('ANALYZE');
        sealed = true;
      },
      async count() {
        return db.prepare('SELECT count(*) FROM business WHERE country = ?').pluck().get(country) as number;
      },
      async withReader(fn) {
        if (!sealed) throw new Error('seal() the build before reading it');
        const reader = new SqliteBusinessStore(next);
        reader.db = db;
        return fn(reader);
      },
      commit: async () => {
        db.close();
        done = true;
        this.swapIn(next);
      },
      abort,
    };
  }

  /** Puts a finished file in place of the live one, in one synchronous step. */
  private swapIn(next: string): void {
    this.db?.close();
    // A cleanly closed connection leaves no WAL; one left by a crash belongs to the old file.
    for (const suffix of ['-wal', '-shm']) rmSync(this.path + suffix, { force: true });
    renameSync(next, this.path);
    this.db = openSqlite(this.path);
    this.db.exec(SCHEMA);
  }

  async get(businessId: string): Promise<BusinessDoc | null> {
    const row = this.conn.prepare('SELECT doc FROM business WHERE business_id = ?').pluck().get(businessId) as string | undefined;
    return row ? (JSON.parse(row) as BusinessDoc) : null;
  }

  async count(): Promise<number> {
    return this.conn.prepare('SELECT count(*) FROM business').pluck().get() as number;
  }

  private filterSql(f: BusinessFilter, alias: string): { sql: string; args: unknown[] } {
    const parts: string[] = [];
    const args: unknown[] = [];
    if (f.activeOnly) parts.push(`${alias}.active = 1`);
    if (f.countries && f.countries.length > 0) {
      parts.push(`${alias}.country IN (${f.countries.map(() => '?').join(',')})`);
      args.push(...f.countries);
    }
    return { sql: parts.map((p) => ` AND ${p}`).join(''), args };
  }

  private docs(sql: string, args: unknown[]): BusinessDoc[] {
    return (this.conn.prepare(sql).pluck().all(...args) as string[]).map((s) => JSON.parse(s) as BusinessDoc);
  }

  async byNamePrefix(key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    const f = this.filterSql(filter, 'b');
    return this.docs(`SELECT b.doc FROM business b WHERE b.name_key >= ? AND b.name_key < ?${f.sql} ORDER BY b.name_key LIMIT ?`, [key, prefixEnd(key), ...f.args, size]);
  }

  async byTokens(words: string[], prefixes: string[], filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    const match = [...words.map((w) => phrase(w, false)), ...prefixes.map((p) => phrase(p, true))].join(' ');
    if (!match) return [];
    const f = this.filterSql(filter, 'b');
    return this.docs(`SELECT b.doc FROM business_fts JOIN business b ON b.id = business_fts.rowid WHERE business_fts MATCH ?${f.sql} LIMIT ?`, [match, ...f.args, size]);
  }

  async byCin(digits: string, key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    const f = this.filterSql(filter, 'b');
    const out = this.docs(`SELECT b.doc FROM business b WHERE b.cin >= ? AND b.cin < ?${f.sql} ORDER BY b.cin LIMIT ?`, [digits, prefixEnd(digits), ...f.args, size]);
    if (key !== '') {
      out.push(...this.docs(`SELECT b.doc FROM business b WHERE b.cin_key >= ? AND b.cin_key < ?${f.sql} ORDER BY b.cin_key LIMIT ?`, [key, prefixEnd(key), ...f.args, size]));
    }
    // The exact number first, even when the prefix ranges are full of longer ones.
    if (key !== '') out.unshift(...this.docs(`SELECT b.doc FROM business b WHERE b.cin_key = ?${f.sql}`, [key, ...f.args]));
    return out;
  }

  async ping(): Promise<void> {
    this.conn.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = null;
  }
}
