import { CountryCode, PlaceObject } from '@lookup/contracts';
import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { CandidateQuery } from '../search/candidate-query';
import { docTokens } from '../search/doc-tokens';
import { fuzzyExpansions, FUZZY_PREFIX_LENGTH } from '../search/fuzzy';
import { distanceMetres } from '../search/ranking';
import { buildSqliteNearby, buildSqliteSearch, SQLITE_TABLES as T } from '../search/sqlite-query.builder';
import { BulkLoadReport, CATALOGUE_OBJECTS, CatalogueObject, NearbyHit, NearbyQuery, PlacesStore } from './places.store';
import { migrate, SECONDARY_INDEXES } from './sqlite-places.schema';

type Statement = import('better-sqlite3').Statement<unknown[], unknown>;

// Rows keep a document's non-null fields only (a third of an address is nulls); reading puts the nulls back.
const NULL_FIELDS = Object.entries(emptyDoc('CZ', 'address', 'cz_a0', ''))
  .filter(([, v]) => v === null)
  .map(([k]) => k);

function encodeDoc(d: PlaceDoc): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) if (v !== null) out[k] = v;
  return JSON.stringify(out);
}

function decodeDoc(json: string): PlaceDoc {
  const d = JSON.parse(json) as Record<string, unknown>;
  for (const k of NULL_FIELDS) if (d[k] === undefined) d[k] = null;
  return d as unknown as PlaceDoc;
}

/** Points in a box are fetched up to this many before the exact distance sorts them. */
const NEARBY_SCAN = 5000;

/** Standalone engine: one SQLite file; documents as JSON rows, FTS5 for words, R*Tree for positions. */
export class SqlitePlacesStore implements PlacesStore {
  readonly engine = 'sqlite' as const;
  private db: SqliteDatabase | null = null;
  private stmts: Record<string, Statement> = {};

  constructor(private readonly path: string) {}

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('SqlitePlacesStore used before init()');
    return this.db;
  }

  private stmt(sql: string): Statement {
    return (this.stmts[sql] ??= this.conn.prepare<unknown[], unknown>(sql));
  }

  async init(): Promise<void> {
    if (this.db) return;
    this.db = openSqlite(this.path);
    migrate(this.db);
  }

  private ftsOf(object: PlaceObject): string {
    return object === 'address' ? T.addressFts : T.areaFts;
  }

  /** Removes a stored document from every table (FTS rows are contentless: deleted by rowid). */
  private removeRow(rid: number, object: string): void {
    this.stmt(`DELETE FROM ${this.ftsOf(object as PlaceObject)} WHERE rowid = ?`).run(rid);
    this.stmt(`DELETE FROM ${T.rtree} WHERE id = ?`).run(rid);
    this.stmt(`DELETE FROM ${T.docs} WHERE rid = ?`).run(rid);
  }

  private writeDoc(d: PlaceDoc): void {
    const old = this.stmt(`SELECT rid, object FROM ${T.docs} WHERE place_id = ?`).get(d.place_id) as { rid: number; object: string } | undefined;
    if (old) this.removeRow(old.rid, old.object);
    const info = this.stmt(
      `INSERT INTO ${T.docs} (place_id, country, object, name, region_id, county_id, municipality_id, postal_code, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(d.place_id, d.country, d.object, d.name, d.region_id, d.county_id, d.municipality_id, d.postal_code, encodeDoc(d));
    const rid = Number(info.lastInsertRowid);
    this.stmt(`INSERT INTO ${this.ftsOf(d.object)} (rowid, tokens) VALUES (?, ?)`).run(rid, docTokens(d).join(' '));
    if (d.lat !== null && d.lng !== null) this.stmt(`INSERT INTO ${T.rtree} (id, min_lat, max_lat, min_lng, max_lng) VALUES (?, ?, ?, ?, ?)`).run(rid, d.lat, d.lat, d.lng, d.lng);
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const db = this.conn;
    const keep = new Set(docs.map((d) => d.place_id));
    const old = db.prepare(`SELECT rid, object, place_id FROM ${T.docs} WHERE country = ? AND object IN (${CATALOGUE_OBJECTS.map(() => '?').join(',')})`);
    db.transaction(() => {
      for (const r of old.all(country, ...CATALOGUE_OBJECTS) as Array<{ rid: number; object: string; place_id: string }>) {
        if (!keep.has(r.place_id)) this.removeRow(r.rid, r.object);
      }
      for (const d of docs) this.writeDoc(d);
    })();
  }

  async upsert(docs: PlaceDoc[]): Promise<void> {
    this.conn.transaction(() => {
      for (const d of docs) this.writeDoc(d);
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
      for (const s of SECONDARY_INDEXES) db.exec(s);
      for (const t of [T.addressFts, T.areaFts]) db.exec(`INSERT INTO ${t} (${t}) VALUES ('optimize')`);
      db.exec('ANALYZE');
      db.pragma('synchronous = NORMAL');
      db.pragma(`cache_size = ${cacheSize}`);
    }
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  /** Typo pass: the terms of the vocabulary within the shared edit distance (search/fuzzy.ts). */
  private expansions(q: CandidateQuery, fts: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const t of q.terms) {
      if (t.mode !== 'fuzzy') continue;
      const head = t.value.slice(0, FUZZY_PREFIX_LENGTH);
      const d = t.fuzziness ?? 1;
      const rows = this.stmt(`SELECT term FROM ${fts}_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?`).all(
        head,
        head + '\uffff',
        t.value.length - d,
        t.value.length + d,
      ) as Array<{ term: string }>;
      out[t.value] = fuzzyExpansions(t.value, rows.map((r) => r.term), d);
    }
    return out;
  }

  async candidates(q: CandidateQuery): Promise<PlaceDoc[]> {
    const tables = new Set(q.objects.map((o) => this.ftsOf(o)));
    const out: PlaceDoc[] = [];
    for (const fts of tables) {
      const req = buildSqliteSearch(q, fts, this.expansions(q, fts));
      if (!req) continue;
      for (const r of this.stmt(req.sql).all(...req.params) as Array<{ doc: string }>) out.push(decodeDoc(r.doc));
    }
    return out;
  }

  async nearby(q: NearbyQuery): Promise<NearbyHit[]> {
    const dLat = q.metres / 111_320 + 1e-6;
    const dLng = q.metres / (111_320 * Math.max(0.01, Math.cos((q.lat * Math.PI) / 180))) + 1e-6;
    const req = buildSqliteNearby({ minLat: q.lat - dLat, maxLat: q.lat + dLat, minLng: q.lng - dLng, maxLng: q.lng + dLng }, q.countries, NEARBY_SCAN);
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
    const rows = this.stmt(`SELECT doc FROM ${T.docs} WHERE country = ? AND object = ?`).all(country, object) as { doc: string }[];
    return rows.map((r) => decodeDoc(r.doc));
  }

  async get(placeId: string): Promise<PlaceDoc | null> {
    const row = this.stmt(`SELECT doc FROM ${T.docs} WHERE place_id = ?`).get(placeId) as { doc: string } | undefined;
    return row ? decodeDoc(row.doc) : null;
  }

  async count(country: CountryCode, object: PlaceObject): Promise<number> {
    const row = this.stmt(`SELECT count(*) AS n FROM ${T.docs} WHERE country = ? AND object = ?`).get(country, object) as { n: number };
    return row.n;
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
