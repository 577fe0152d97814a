import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { COUNTRY_CODES, CountryCode, PlaceObject } from '@lookup/contracts';
import { execOffThread, openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { docOf, docOfPacked, packedDoc, PlaceDoc } from '../domain/place.doc';
import { CandidateQuery, nearBox, NearClause, TermClause } from '../search/candidate-query';
import { docTokens } from '../search/doc-tokens';
import { TypoTerm, vocabularyExpansions, vocabularyHasAll } from '../search/typo-prefix';
import { distanceMetres } from '../search/ranking';
import { buildSqliteMatchCount, buildSqliteNearby, buildSqliteNearSearch, buildSqliteSearch, ftsMatch, NEAR_BY_MATCHES, NEAR_SCAN, SQLITE_TABLES as T } from '../search/sqlite-query.builder';
import { BulkLoadReport, CATALOGUE_OBJECTS, CatalogueObject, DatasetVersionInfo, MunicipalityPostalCode, NearbyHit, NearbyQuery, PlacesStore, PlacesVersionBuild, VersionScope } from './places.store';
import { FtsKind, FtsLayout, ftsLayoutOf, ftsTableName, ftsTables, migrate, MUNICIPALITY_POSTAL_INDEX, SECONDARY_INDEXES, VERSIONS_TABLE } from './sqlite-places.schema';
import { versionStamp } from './opensearch-places.versions';
import { importLockPath, lockHolder } from './import-lock';

type Statement = import('better-sqlite3').Statement<unknown[], unknown>;

export type SqliteStoreMode = 'live' | 'build' | 'reader';

/** What a reader connection opens: the live file, and the count of versions swapped into it. */
export interface SqliteSource {
  file: string;
  generation: number;
}

/** A row's `doc`: the packed document (`packedDoc`'s JSON array, without the keys). */
function encodeDoc(d: PlaceDoc): string {
  return JSON.stringify(packedDoc(d));
}

/**
 * A row's document (the store's reads, and benches reading a file directly). Files written
 * before the packed form hold the document's non-null fields as a keyed object
 * (`{"place_id":...}`), read through docOf; a file may hold both kinds once address changes have
 * been applied to it.
 */
export function decodeDoc(json: string): PlaceDoc {
  if (json.charCodeAt(0) !== 91 /* [ */) return docOf(JSON.parse(json) as Partial<PlaceDoc>);
  const doc = docOfPacked(JSON.parse(json));
  if (!doc) throw new Error(`a places row in a packed form this version does not know: ${json.slice(0, 40)}`);
  return doc;
}

/** A file up to this size (with its WAL) reads its vocabularies in a few milliseconds (see typoPassReady). */
const CHEAP_VOCABULARY_FILE_BYTES = 32 * 2 ** 20;

/** The database file's size with its write-ahead log; 0 for a file that is not there. */
function fileBytes(path: string): number {
  let n = 0;
  for (const f of [path, `${path}-wal`]) n += statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  return n;
}

/** How often a live store compares its file with the path (another process may have swapped it). */
const FOLLOW_MS = 250;

/** Points in a box are fetched up to this many before the exact distance sorts them. */
const NEARBY_SCAN = 5000;

function removeDbFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) if (existsSync(path + suffix)) rmSync(path + suffix);
}

/** Merges each full-text index into one segment: a query looks a term up once instead of once per segment. */
const ftsOptimize = (layout: FtsLayout) => ftsTables(layout).map((t) => `INSERT INTO ${t} (${t}) VALUES ('optimize')`);
/** What finishes a bulk write: secondary indexes, FTS segments merged, statistics. */
const finishBulk = (layout: FtsLayout) => [...SECONDARY_INDEXES, ...ftsOptimize(layout), 'ANALYZE'];

/** The full-text kind of an object: addresses have tables of their own, so a street or municipality search never walks address postings. */
const kindOf = (object: string): FtsKind => (object === 'address' ? 'address' : 'area');

/** Rows copied per transaction when a build carries documents over from the live file. */
const CARRY_BATCH = 5000;

/** A new version starts from a copy of the live file when its other countries' rows are at least this many times the country's (see copyLiveAbove). */
const COPY_RATIO = 4;

/**
 * Standalone engine: one SQLite file; documents as JSON rows, FTS5 for words (a table per kind and
 * country, see sqlite-places.schema.ts), R*Tree for positions.
 *
 * Dataset versions: a new version of a country is built as a whole new file (`<path>.import`:
 * the other countries' rows copied over, then the new dataset, indexes built once at the end),
 * verified through a reader on that file, then renamed over the live file and the connection
 * swapped in one synchronous step, so a query sees the old data or the new, never a mix. We
 * chose a whole file over a `version` column or attached per-country files because the query
 * builders, the FTS tables and the R*Tree stay exactly as they are (no extra join, no UNION over
 * attached databases): the golden test and the search benchmark run the same SQL on the same
 * layout. The cost is copying the other countries' rows on each build: as pages (a copy of the
 * live file, the country's rows then deleted) where they are many, else row by row (FTS tokens
 * recomputed from the stored document); see copyLiveAbove. A crash mid-build
 * leaves the live file untouched; the next build deletes the leftover. The switch is seen by
 * this store (the standalone app runs the pipeline in-process on its own store); another process
 * with the file open keeps reading the old version until it reopens it.
 */
export class SqlitePlacesStore implements PlacesStore {
  readonly engine = 'sqlite' as const;
  private db: SqliteDatabase | null = null;
  private stmts: Record<string, Statement> = {};
  private swaps = 0;
  /** Writes through this connection (data_version counts only other connections' commits). */
  private writes = 0;
  private vocab = new Map<string, { stamp: string; terms: string[] }>();
  /** The live file's inode when opened, and when that was last compared with the path's. */
  private inode = 0;
  private checkedAt = 0;
  /** The open file's full-text tables (see sqlite-places.schema.ts). */
  private layout: FtsLayout = 'country';

  /**
   * `live`: the served file (WAL, migrated at init). `build`: a file being built by the
   * pipeline (no journal, nothing reads it live yet). `reader`: a read-only connection to a
   * live file another connection owns (a search thread's; see search/search-threads.ts).
   */
  constructor(
    private readonly path: string,
    private readonly mode: SqliteStoreMode = 'live',
    /** A build file copied from the live one keeps its secondary indexes (rebuilding one over a whole register: seconds). */
    private readonly copiedFile = false,
  ) {}

  private get buildFile(): boolean {
    return this.mode === 'build';
  }

  /** The file and how many versions were swapped into it: a reader of an older generation reopens. */
  get source(): SqliteSource {
    this.followSwap();
    return { file: this.path, generation: this.swaps };
  }

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('SqlitePlacesStore used before init()');
    return this.db;
  }

  private stmt(sql: string): Statement {
    return (this.stmts[sql] ??= this.conn.prepare<unknown[], unknown>(sql));
  }

  async init(): Promise<void> {
    if (this.db) return;
    if (this.buildFile) {
      this.db = new Database(this.path);
      this.db.pragma('journal_mode = OFF');
      this.db.pragma('synchronous = OFF');
      this.layout = migrate(this.db);
      if (!this.copiedFile) for (const s of SECONDARY_INDEXES) db_dropIndex(this.db, s);
      return;
    }
    if (this.mode === 'reader') {
      this.db = new Database(this.path, { readonly: true, fileMustExist: true, timeout: 5000 });
      this.layout = ftsLayoutOf(this.db);
      return;
    }
    // What a killed import left (its half-built file), unless an import is running now.
    if (!lockHolder(importLockPath(this.path))) removeDbFiles(`${this.path}.import`);
    this.openLive();
  }

  private openLive(): void {
    this.db = openSqlite(this.path);
    this.layout = migrate(this.db);
    this.inode = statSync(this.path).ino;
  }

  /**
   * Another process (the import CLI) renamed a finished version over the file: reopen it, as
   * after a swap of our own, so a running server serves it without a restart (the search threads
   * follow `source.generation`). Checked before reads, at most every FOLLOW_MS; never inside a
   * write, and the rename is atomic, so a reader sees the old file or the new, never a half.
   */
  private followSwap(): void {
    if (this.mode !== 'live' || !this.db) return;
    const now = Date.now();
    if (now - this.checkedAt < FOLLOW_MS) return;
    this.checkedAt = now;
    let inode: number;
    try {
      inode = statSync(this.path).ino;
    } catch {
      return;
    }
    if (inode === this.inode) return;
    this.stmts = {};
    this.db.close();
    this.openLive();
    this.vocab.clear();
    this.swaps++;
  }

  /** Writes documents in one transaction (the build's path; upserts by place_id). */
  writeBatch(docs: PlaceDoc[]): void {
    this.conn.transaction(() => {
      for (const d of docs) this.writeDoc(d);
    })();
  }

  /** Live documents outside the scope, in batches (what a new version carries over). */
  *carried(scope: VersionScope): Generator<PlaceDoc[]> {
    const objects = scope.replace === 'all' ? [] : scope.replace;
    const keep = objects.length ? ` OR object NOT IN (${objects.map(() => '?').join(',')})` : '';
    let after = 0;
    for (;;) {
      const rows = this.conn
        .prepare(`SELECT rid, doc FROM ${T.docs} WHERE rid > ? AND (country <> ?${keep}) ORDER BY rid LIMIT ?`)
        .all(after, scope.country, ...objects, CARRY_BATCH) as Array<{ rid: number; doc: string }>;
      if (rows.length === 0) return;
      after = rows[rows.length - 1].rid;
      const docs = rows.map((r) => decodeDoc(r.doc));
      yield scope.carry ? docs.map((d) => (d.country === scope.country ? scope.carry!(d) : d)) : docs;
    }
  }

  /** Secondary indexes, FTS merge and statistics, once after a bulk write. */
  finishBulk(): void {
    for (const s of finishBulk(this.layout)) this.conn.exec(s);
  }

  /** `finishBulk` on a worker thread (a version build's seal: seconds on a whole country). */
  finishBulkOffThread(): Promise<void> {
    return execOffThread(this.path, finishBulk(this.layout));
  }

  /**
   * Merges the live file's full-text segments, on a worker thread. A version build's seal does
   * this; writes to the live file (a catalogue, GeoNames postal codes, the first start's sample)
   * each add segments, and every search then pays per segment (the bundled sample: 16 segments,
   * its searches 2-3x slower than on one).
   */
  optimizeSearchIndex(): Promise<void> {
    return execOffThread(this.path, ftsOptimize(this.layout));
  }

  /** Full-text segments in the live file by table, tables with none left out (what optimizeSearchIndex brings down to one per index). */
  searchIndexSegments(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const t of ftsTables(this.layout)) {
      const n = (this.stmt(`SELECT count(DISTINCT segid) AS n FROM ${t}_idx`).get() as { n: number } | undefined)?.n ?? 0;
      if (n > 0) out[t] = n;
    }
    return out;
  }

  setVersion(country: CountryCode, version: string): void {
    this.stmt(`INSERT INTO ${VERSIONS_TABLE} (country, version) VALUES (?, ?) ON CONFLICT(country) DO UPDATE SET version = excluded.version`).run(country, version);
  }

  versions(): Array<{ country: string; version: string }> {
    return this.stmt(`SELECT country, version FROM ${VERSIONS_TABLE}`).all() as Array<{ country: string; version: string }>;
  }

  async countCountry(country: CountryCode): Promise<number> {
    this.followSwap();
    return (this.stmt(`SELECT count(*) AS n FROM ${T.docs} WHERE country = ?`).get(country) as { n: number }).n;
  }

  async liveVersion(country: CountryCode): Promise<DatasetVersionInfo | null> {
    this.followSwap();
    const docs = await this.countCountry(country);
    const row = this.versions().find((v) => v.country === country);
    if (row) return { version: row.version, docs };
    return docs > 0 ? { version: 'legacy', docs } : null;
  }

  /**
   * A new version starts as a page copy of the live file (SQLite's backup API), the scope's rows
   * then deleted, when the file holds at least this many rows outside the country and those are
   * at least COPY_RATIO times the country's: carrying row by row recomputes every carried row's
   * full-text tokens and R*Tree entry (a LI catalogue of 13 rows beside the whole CZ register:
   * 90-115 s), a page copy does not. Tests lower it to take the copy path on small files.
   */
  copyLiveAbove = 100_000;

  /** How the last `beginVersion` started its file: 'copy' (the live file's pages) or 'rows' (carried row by row). */
  lastBuildStart: 'copy' | 'rows' | null = null;

  /** Whether a new version of `scope` should start from a copy of the live file (see copyLiveAbove). */
  private startsFromCopy(scope: VersionScope): boolean {
    if (this.layout !== 'country') return false; // a schema 2 file: the next version is written in the new layout
    const total = (this.stmt(`SELECT count(*) AS n FROM ${T.docs}`).get() as { n: number }).n;
    const own = (this.stmt(`SELECT count(*) AS n FROM ${T.docs} WHERE country = ?`).get(scope.country) as { n: number }).n;
    const others = total - own;
    return others > 0 && others >= this.copyLiveAbove && others >= COPY_RATIO * own;
  }

  async beginVersion(scope: VersionScope): Promise<PlacesVersionBuild> {
    if (this.mode !== 'live') throw new Error(`a ${this.mode} store cannot build versions`);
    const next = `${this.path}.import`;
    // Left by a crashed or killed build: never live, safe to drop.
    removeDbFiles(next);
    if (this.startsFromCopy(scope)) return this.beginFromCopy(scope, next);
    this.lastBuildStart = 'rows';
    const build = new SqlitePlacesStore(next, 'build');
    await build.init();
    let carried = 0;
    try {
      for (const v of this.versions()) build.setVersion(v.country as CountryCode, v.version);
      for (const docs of this.carried(scope)) {
        build.writeBatch(docs);
        // What verify compares with the new version's count of this country: other countries are copied, not counted.
        carried += docs.filter((d) => d.country === scope.country).length;
        scope.onCarried?.(carried);
        // better-sqlite3 is synchronous: let the searches of this process in between batches.
        await new Promise((r) => setImmediate(r));
      }
    } catch (err) {
      await build.close();
      removeDbFiles(next);
      throw err;
    }
    return new SqlitePlacesVersionBuild(this, build, next, versionStamp(), carried, scope.country);
  }

  /**
   * The new version's file as a page copy of the live one (a consistent snapshot: the backup API
   * restarts if another connection writes meanwhile), then the scope's rows deleted and, with
   * `scope.carry`, the country's other rows rewritten; the rest is as the row path leaves it.
   */
  private async beginFromCopy(scope: VersionScope, next: string): Promise<PlacesVersionBuild> {
    this.lastBuildStart = 'copy';
    let build: SqlitePlacesStore | null = null;
    try {
      // 8 MB a step; between steps the event loop serves this process's searches.
      await this.conn.backup(next, { progress: () => 2048 });
      build = new SqlitePlacesStore(next, 'build', true);
      await build.init();
      const carried = await build.dropScope(scope);
      return new SqlitePlacesVersionBuild(this, build, next, versionStamp(), carried, scope.country);
    } catch (err) {
      await build?.close();
      removeDbFiles(next);
      throw err;
    }
  }

  /**
   * In a build file copied from the live one: deletes the scope's rows and rewrites the
   * country's kept rows through `scope.carry`. Returns the country's kept rows (`carried`).
   */
  private async dropScope(scope: VersionScope): Promise<number> {
    const country = scope.country;
    if (scope.replace === 'all') {
      this.conn.transaction(() => {
        for (const kind of ['address', 'area'] as FtsKind[]) {
          const fts = ftsTableName(this.layout, kind, country);
          this.conn.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`).run();
        }
        this.conn.prepare(`DELETE FROM ${T.rtree} WHERE id IN (SELECT rid FROM ${T.docs} WHERE country = ?)`).run(country);
        this.conn.prepare(`DELETE FROM ${T.docs} WHERE country = ?`).run(country);
      })();
      return 0;
    }
    const objects = scope.replace;
    if (objects.length) {
      const marks = objects.map(() => '?').join(',');
      for (;;) {
        const rows = this.conn.prepare(`SELECT rid, object FROM ${T.docs} WHERE country = ? AND object IN (${marks}) LIMIT ?`).all(country, ...objects, CARRY_BATCH) as Array<{ rid: number; object: string }>;
        if (!rows.length) break;
        this.conn.transaction(() => {
          for (const r of rows) this.removeRow(r.rid, r.object, country);
        })();
        await new Promise((r) => setImmediate(r));
      }
    }
    const kept = (this.conn.prepare(`SELECT count(*) AS n FROM ${T.docs} WHERE country = ?`).get(country) as { n: number }).n;
    if (scope.carry) {
      // Rewritten rows get new rids past `last`: reading only up to it visits each kept row once.
      const last = (this.conn.prepare(`SELECT max(rid) AS m FROM ${T.docs}`).get() as { m: number | null }).m ?? 0;
      let after = 0;
      for (;;) {
        const rows = this.conn
          .prepare(`SELECT rid, doc FROM ${T.docs} WHERE country = ? AND rid > ? AND rid <= ? ORDER BY rid LIMIT ?`)
          .all(country, after, last, CARRY_BATCH) as Array<{ rid: number; doc: string }>;
        if (!rows.length) break;
        after = rows[rows.length - 1].rid;
        this.writeBatch(rows.map((r) => scope.carry!(decodeDoc(r.doc))));
        await new Promise((r) => setImmediate(r));
      }
    }
    return kept;
  }

  /** Puts a finished build file in place of the live one; synchronous, so no query sees a mix. */
  swapIn(next: string): void {
    this.stmts = {};
    this.db?.close();
    this.db = null;
    // A cleanly closed connection leaves no WAL; one left by a crash belongs to the old file.
    for (const suffix of ['-wal', '-shm']) rmSync(this.path + suffix, { force: true });
    renameSync(next, this.path);
    this.openLive();
    this.vocab.clear();
    this.swaps++;
  }

  private ftsOf(object: string, country: string): string {
    return ftsTableName(this.layout, kindOf(object), country as CountryCode);
  }

  /** The full-text tables a search of `objects` in `countries` (when none: every country the file has) reads, by kind. */
  private ftsFor(objects: readonly string[], countries: readonly string[] | null): string[][] {
    const kinds = [...new Set(objects.map(kindOf))];
    if (this.layout === 'shared') return kinds.map((k) => [ftsTableName('shared', k, 'CZ')]);
    const list = countries?.length ? [...new Set(countries as readonly CountryCode[])] : this.countriesWithRows();
    return kinds.map((k) => list.map((c) => ftsTableName('country', k, c)));
  }

  private withRows: { stamp: string; countries: CountryCode[] } | null = null;

  /** The countries the file has rows of (one index seek each), kept until the data changes: a search without a country reads only their tables. */
  private countriesWithRows(): CountryCode[] {
    const stamp = this.stampNow();
    if (this.withRows?.stamp !== stamp) {
      this.withRows = { stamp, countries: COUNTRY_CODES.filter((c) => this.stmt(`SELECT 1 FROM ${T.docs} WHERE country = ? LIMIT 1`).get(c) !== undefined) };
    }
    return this.withRows.countries;
  }

  /** Removes a stored document from every table (FTS rows are contentless: deleted by rowid). */
  private removeRow(rid: number, object: string, country: string): void {
    this.writes++;
    this.stmt(`DELETE FROM ${this.ftsOf(object, country)} WHERE rowid = ?`).run(rid);
    this.stmt(`DELETE FROM ${T.rtree} WHERE id = ?`).run(rid);
    this.stmt(`DELETE FROM ${T.docs} WHERE rid = ?`).run(rid);
  }

  private writeDoc(d: PlaceDoc): void {
    this.writes++;
    const old = this.stmt(`SELECT rid, object, country FROM ${T.docs} WHERE place_id = ?`).get(d.place_id) as { rid: number; object: string; country: string } | undefined;
    if (old) this.removeRow(old.rid, old.object, old.country);
    const info = this.stmt(
      `INSERT INTO ${T.docs} (place_id, country, object, name, region_id, county_id, municipality_id, postal_code, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(d.place_id, d.country, d.object, d.name, d.region_id, d.county_id, d.municipality_id, d.postal_code, encodeDoc(d));
    const rid = Number(info.lastInsertRowid);
    this.stmt(`INSERT INTO ${this.ftsOf(d.object, d.country)} (rowid, tokens) VALUES (?, ?)`).run(rid, docTokens(d).join(' '));
    if (d.lat !== null && d.lng !== null) this.stmt(`INSERT INTO ${T.rtree} (id, min_lat, max_lat, min_lng, max_lng) VALUES (?, ?, ?, ?, ?)`).run(rid, d.lat, d.lat, d.lng, d.lng);
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const db = this.conn;
    const keep = new Set(docs.map((d) => d.place_id));
    const old = db.prepare(`SELECT rid, object, place_id FROM ${T.docs} WHERE country = ? AND object IN (${CATALOGUE_OBJECTS.map(() => '?').join(',')})`);
    db.transaction(() => {
      for (const r of old.all(country, ...CATALOGUE_OBJECTS) as Array<{ rid: number; object: string; place_id: string }>) {
        if (!keep.has(r.place_id)) this.removeRow(r.rid, r.object, country);
      }
      for (const d of docs) this.writeDoc(d);
    })();
  }

  async upsert(docs: PlaceDoc[]): Promise<void> {
    this.conn.transaction(() => {
      for (const d of docs) this.writeDoc(d);
    })();
  }

  async remove(placeIds: string[]): Promise<void> {
    this.conn.transaction(() => {
      for (const id of placeIds) {
        const old = this.stmt(`SELECT rid, object, country FROM ${T.docs} WHERE place_id = ?`).get(id) as { rid: number; object: string; country: string } | undefined;
        if (old) this.removeRow(old.rid, old.object, old.country);
      }
    })();
  }

  async bulkLoad(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const db = this.conn;
    const t0 = process.hrtime.bigint();
    let n = 0;
    // Secondary indexes are built once at the end; a crash mid-load loses nothing the source cannot give again.
    db.exec('DROP INDEX IF EXISTS places_country_object');
    const cacheSize = db.pragma('cache_size', { simple: true }) as number;
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -16384');
    const write = db.transaction((docs: PlaceDoc[]) => {
      for (const d of docs) this.writeDoc(d);
    });
    try {
      for await (const batch of batches) {
        write(batch);
        n += batch.length;
        onProgress?.(n);
      }
    } finally {
      this.finishBulk();
      db.pragma('synchronous = NORMAL');
      db.pragma(`cache_size = ${cacheSize}`);
    }
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  /**
   * The vocabulary of an FTS table: the typo pass's terms within the shared edit distance
   * (search/fuzzy.ts), and the check that every term of a query can match at all. It is read once
   * per connection and kept sorted in memory (tens of thousands of terms): fts5vocab computes
   * counts from the postings of every term it returns, which made a range scan over one first
   * letter cost tens of milliseconds per word. It is read again after any write, by this
   * connection or another (`data_version`, read on every use: a search thread may answer the
   * next search in the same turn of its event loop as the one before a commit).
   */
  private vocabulary(fts: string): string[] {
    const stamp = this.stampNow();
    const cached = this.vocab.get(fts);
    if (cached && cached.stamp === stamp) return cached.terms;
    const terms = (this.stmt(`SELECT term FROM ${fts}_vocab`).all() as Array<{ term: string }>).map((r) => r.term);
    // fts5vocab lists terms in the index's (binary) order; sorted again in JavaScript's order for the binary search.
    terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.vocab.set(fts, { stamp, terms });
    return terms;
  }

  /** The vocabulary if it is in memory and current, without reading it. */
  private keptVocabulary(fts: string): string[] | null {
    const cached = this.vocab.get(fts);
    return cached && cached.stamp === this.stampNow() ? cached.terms : null;
  }

  async candidates(q: CandidateQuery): Promise<PlaceDoc[]> {
    this.followSwap();
    const out: PlaceDoc[] = [];
    const typos = q.terms.filter((t): t is TermClause & TypoTerm => t.mode === 'fuzzy' || t.mode === 'fuzzyPrefix');
    // Up to `size` candidates of each kind, the countries' tables in turn; near a point, the nearest `size` of all its tables.
    for (const tables of this.ftsFor(q.objects, q.countries)) {
      let room = q.size;
      const near: Array<{ doc: PlaceDoc; d: number }> = [];
      for (const fts of tables) {
        if (room <= 0) break;
        // The typo pass reads the vocabulary (half a second on a whole country's addresses, again
        // after a write); a strict pass only uses it when it is already in memory and current.
        const vocabulary = typos.length > 0 ? this.vocabulary(fts) : this.keptVocabulary(fts);
        const expansions = typos.length === 0 || !vocabulary ? {} : vocabularyExpansions(typos, vocabulary);
        // A term no word of the table matches: the query (an AND) finds nothing, FTS5 is not asked.
        if (vocabulary && !vocabularyHasAll(q.terms, vocabulary, expansions)) continue;
        if (q.near) {
          if (q.terms.length > 0) this.nearRows(q, q.near, fts, expansions, near);
          continue;
        }
        const req = buildSqliteSearch(room === q.size ? q : { ...q, size: room }, fts, expansions);
        if (!req) continue;
        // pluck(): the doc text itself, not a `{ doc }` object per row.
        const rows = this.stmt(req.sql).pluck().all(...req.params) as string[];
        for (const doc of rows) out.push(decodeDoc(doc));
        room -= rows.length;
      }
      if (near.length > q.size) near.sort((a, b) => a.d - b.d || (a.doc.place_id < b.doc.place_id ? -1 : 1)).length = q.size;
      for (const n of near) out.push(n.doc);
    }
    return out;
  }

  /** From this many text matches on, a near search scans the box (see NearPlan); tests lower it to run that plan on a few documents. */
  nearByMatches = NEAR_BY_MATCHES;

  /** Past this many text matches, no near search (see NEAR_SCAN). */
  nearScan = NEAR_SCAN;

  /**
   * One table's nearest matches in the box of `near`, the plan chosen by how many matches there
   * are (counted up to nearScan + 1 from the index alone: 1 ms at most; see NearPlan).
   */
  private nearRows(q: CandidateQuery, near: NearClause, fts: string, expansions: Record<string, string[]>, out: Array<{ doc: PlaceDoc; d: number }>): void {
    const count = buildSqliteMatchCount(q, fts, expansions, this.nearScan + 1);
    const matches = this.stmt(count.sql).pluck().get(...count.params) as number;
    if (matches === 0 || matches > this.nearScan) return;
    const req = buildSqliteNearSearch(q, near, fts, expansions, matches < this.nearByMatches ? 'matches' : 'box', this.nearScan);
    for (const r of this.stmt(req.sql).all(...req.params) as Array<{ doc: string; d: number }>) out.push({ doc: decodeDoc(r.doc), d: r.d });
  }

  /** Up to this file size (with the WAL) typoPassReady() calls a vocabulary read cheap. */
  cheapVocabularyBytes = CHEAP_VOCABULARY_FILE_BYTES;

  /**
   * True when the vocabularies are in memory and current, or the file is small enough that
   * reading them is cheap (the bundled sample: well under a millisecond). fts5vocab reads every
   * term's postings, so the cost grows with the index: about 0.25 s on the whole CZ register.
   */
  typoPassReady(objects: PlaceObject[], countries: readonly CountryCode[] | null = null): boolean {
    this.followSwap();
    return this.ftsFor(objects, countries).every((tables) => tables.every((t) => this.keptVocabulary(t))) || fileBytes(this.path) <= this.cheapVocabularyBytes;
  }

  async nearby(q: NearbyQuery): Promise<NearbyHit[]> {
    this.followSwap();
    // The exact distance is checked below; the box a little wider, so no point on its edge is lost to rounding.
    const req = buildSqliteNearby(nearBox({ lat: q.lat, lng: q.lng, km: q.metres / 1000 }, 1e-6), q.countries, NEARBY_SCAN);
    const hits: NearbyHit[] = [];
    for (const r of this.stmt(req.sql).all(...req.params) as Array<{ doc: string }>) {
      const doc = decodeDoc(r.doc);
      const distanceM = distanceMetres(q, { lat: doc.lat as number, lng: doc.lng as number });
      if (distanceM <= q.metres) hits.push({ doc, distanceM });
    }
    hits.sort((a, b) => a.distanceM - b.distanceM || (a.doc.place_id < b.doc.place_id ? -1 : 1));
    return hits.slice(0, q.size);
  }

  async list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]> {
    this.followSwap();
    const rows = this.stmt(`SELECT doc FROM ${T.docs} WHERE country = ? AND object = ?`).all(country, object) as { doc: string }[];
    return rows.map((r) => decodeDoc(r.doc));
  }

  async get(placeId: string): Promise<PlaceDoc | null> {
    this.followSwap();
    const row = this.stmt(`SELECT doc FROM ${T.docs} WHERE place_id = ?`).get(placeId) as { doc: string } | undefined;
    return row ? decodeDoc(row.doc) : null;
  }

  async getMany(placeIds: readonly string[]): Promise<PlaceDoc[]> {
    if (placeIds.length === 0) return [];
    this.followSwap();
    const rows = this.stmt(`SELECT doc FROM ${T.docs} WHERE place_id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(placeIds)) as { doc: string }[];
    return rows.map((r) => decodeDoc(r.doc));
  }

  async postalMunicipalities(country: CountryCode, code: string): Promise<string[]> {
    this.followSwap();
    // The code's addresses through the full-text index (the documents table has no index on postal_code); only their municipality ids are read.
    const fts = ftsTableName(this.layout, 'address', country);
    const sql =
      `SELECT DISTINCT p.municipality_id FROM ${fts} JOIN ${T.docs} p ON p.rowid = ${fts}.rowid ` +
      `WHERE ${fts} MATCH ? AND p.country = ? AND p.object = 'address' AND p.postal_code = ? AND p.municipality_id IS NOT NULL`;
    return this.stmt(sql).pluck().all(ftsMatch([{ value: code, mode: 'exact' }]), country, code) as string[];
  }

  async municipalityPostalCodes(municipalityIds: string[], prefix: string, size: number): Promise<MunicipalityPostalCode[]> {
    this.followSwap();
    if (municipalityIds.length === 0) return [];
    // A file no writer has opened since the index came (a reader never migrates): without it this would read every document.
    const indexed = (this.postalIndexed ??= new WeakMap()).get(this.conn) ?? this.hasIndex(MUNICIPALITY_POSTAL_INDEX);
    this.postalIndexed.set(this.conn, indexed);
    if (!indexed) return [];
    const sql =
      `SELECT DISTINCT municipality_id, postal_code FROM ${T.docs} INDEXED BY ${MUNICIPALITY_POSTAL_INDEX} ` +
      `WHERE municipality_id IN (${municipalityIds.map(() => '?').join(', ')}) AND postal_code >= ? AND postal_code < ? LIMIT ?`;
    // Every code starting with the prefix sorts from it up to it followed by the highest character.
    return this.stmt(sql).all(...municipalityIds, prefix, `${prefix}\uffff`, size) as MunicipalityPostalCode[];
  }

  /** Per connection: whether its file has municipalityPostalCodes' index. */
  private postalIndexed?: WeakMap<SqliteDatabase, boolean>;

  private hasIndex(name: string): boolean {
    return this.stmt(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) !== undefined;
  }

  async count(country: CountryCode, object: PlaceObject): Promise<number> {
    this.followSwap();
    const row = this.stmt(`SELECT count(*) AS n FROM ${T.docs} WHERE country = ? AND object = ?`).get(country, object) as { n: number };
    return row.n;
  }

  /** The file this connection has open (swaps), other connections' commits to it (`data_version`) and its own writes. */
  private stampNow(): string {
    // A prepared statement (kept by stmt()): `pragma()` prepares one on every call, 5-8 µs instead of 2-3 on each search.
    return `${this.swaps}:${this.stmt('PRAGMA data_version').pluck().get() as number}:${this.writes}`;
  }

  async dataStamp(): Promise<string> {
    this.followSwap();
    return this.stampNow();
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.stmts = {};
    this.db?.close();
    this.db = null;
  }
}

function db_dropIndex(db: SqliteDatabase, create: string): void {
  const name = /INDEX IF NOT EXISTS (\S+)/.exec(create)?.[1];
  if (name) db.exec(`DROP INDEX IF EXISTS ${name}`);
}

/** A new version of the standalone file (see SqlitePlacesStore). */
class SqlitePlacesVersionBuild implements PlacesVersionBuild {
  private done = false;

  constructor(
    private readonly live: SqlitePlacesStore,
    private readonly build: SqlitePlacesStore,
    private readonly file: string,
    readonly version: string,
    readonly carried: number,
    private readonly country: CountryCode,
  ) {}

  async load(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = process.hrtime.bigint();
    let n = 0;
    for await (const batch of batches) {
      this.build.writeBatch(batch);
      n += batch.length;
      onProgress?.(n);
    }
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  /** Off the event loop: searches and HTTP in this process go on while the new version is finished. */
  seal(): Promise<void> {
    return this.build.finishBulkOffThread();
  }

  count(): Promise<number> {
    return this.build.countCountry(this.country);
  }

  withReader<T>(fn: (store: PlacesStore) => Promise<T>): Promise<T> {
    return fn(this.build);
  }

  async commit(): Promise<void> {
    this.build.setVersion(this.country, this.version);
    await this.build.close();
    this.live.swapIn(this.file);
    this.done = true;
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.build.close();
    removeDbFiles(this.file);
  }
}
