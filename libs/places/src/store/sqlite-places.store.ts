import { CountryCode, PlaceObject } from '@lookup/contracts';
import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { PlaceDoc } from '../domain/place.doc';
import { CATALOGUE_OBJECTS, CatalogueObject, PlacesStore } from './places.store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS places (
  place_id TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  object TEXT NOT NULL,
  name TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS places_country_object ON places (country, object);
`;

/** Standalone engine: one SQLite file, documents as JSON beside the columns we filter on. */
export class SqlitePlacesStore implements PlacesStore {
  readonly engine = 'sqlite' as const;
  private db: SqliteDatabase | null = null;

  constructor(private readonly path: string) {}

  private get conn(): SqliteDatabase {
    if (!this.db) throw new Error('SqlitePlacesStore used before init()');
    return this.db;
  }

  async init(): Promise<void> {
    if (this.db) return;
    this.db = openSqlite(this.path);
    this.db.exec(SCHEMA);
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const db = this.conn;
    const del = db.prepare(`DELETE FROM places WHERE country = ? AND object IN (${CATALOGUE_OBJECTS.map(() => '?').join(',')})`);
    const ins = db.prepare('INSERT OR REPLACE INTO places (place_id, country, object, name, doc) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      del.run(country, ...CATALOGUE_OBJECTS);
      for (const d of docs) ins.run(d.place_id, d.country, d.object, d.name, JSON.stringify(d));
    })();
  }

  async list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]> {
    const rows = this.conn.prepare('SELECT doc FROM places WHERE country = ? AND object = ?').all(country, object) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as PlaceDoc);
  }

  async get(placeId: string): Promise<PlaceDoc | null> {
    const row = this.conn.prepare('SELECT doc FROM places WHERE place_id = ?').get(placeId) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as PlaceDoc) : null;
  }

  async count(country: CountryCode, object: PlaceObject): Promise<number> {
    const row = this.conn.prepare('SELECT count(*) AS n FROM places WHERE country = ? AND object = ?').get(country, object) as { n: number };
    return row.n;
  }

  async ping(): Promise<void> {
    this.conn.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = null;
  }
}
