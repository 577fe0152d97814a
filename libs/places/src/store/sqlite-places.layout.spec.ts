import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { tempDir } from '@lookup/shared/testing';
import { packedDoc, PlaceDoc } from '../domain/place.doc';
import { docTokens } from '../search/doc-tokens';
import { PlacesSearchService } from '../search/places-search.service';
import { address, municipality, street } from '../search/testing/search-fixtures';
import { SqlitePlacesStore } from './sqlite-places.store';

/**
 * Full-text tables per kind and country (schema 3), and files of schema 2 (one table per kind
 * for all countries), which a deployment made before has: served as they are, written as they
 * are, until the next import builds a new file in the new layout.
 */
describe('SQLite full-text layout', () => {
  const dir = tempDir('sqlite-layout-');
  afterAll(() => dir.remove());

  const opava = () => [municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79', { adm: 79 })];
  const kosice = () => [municipality('kosice'), street('kosice', 'Lihovarská'), address('kosice', 'Lihovarská', '5', { adm: 5 })];
  const texts = async (store: SqlitePlacesStore, query: string, country?: string) =>
    (await new PlacesSearchService(store).query(parseRequest(PlaceQueryRequest, country ? { query, country } : { query }))).map((p) => p.formatted_address).sort();
  /** The FTS5 tables of a file (not their vocabulary or shadow tables). */
  const ftsTablesOf = (db: Database.Database) =>
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(tokens%'`).all() as Array<{ name: string }>).map((r) => r.name).sort();
  const tables = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return ftsTablesOf(db);
    } finally {
      db.close();
    }
  };
  const tablesWithRows = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return ftsTablesOf(db).filter((n) => (db.prepare(`SELECT count(*) AS n FROM ${n}_vocab`).get() as { n: number }).n > 0);
    } finally {
      db.close();
    }
  };

  it('writes each country into tables of its own, and answers each country from them', async () => {
    const file = join(dir.path, 'new.sqlite');
    const store = new SqlitePlacesStore(file);
    await store.init();
    await store.upsert([...opava(), ...kosice()]);
    expect(tablesWithRows(file)).toEqual(['fts_address_cz', 'fts_address_sk', 'fts_area_cz', 'fts_area_sk']);
    expect(await texts(store, 'Lihovarská 5', 'SK')).toEqual(['Lihovarská 5, 040 18 Košice - Krásna']);
    expect(await texts(store, 'Lihovarská', 'CZ')).toEqual(['Lihovarská 79, 746 01 Opava']);
    expect(await texts(store, 'Lihovarská')).toEqual(['Lihovarská 5, 040 18 Košice - Krásna', 'Lihovarská 79, 746 01 Opava']);
    // Without a country, only the tables of the countries the file has are asked.
    const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as { all: (...a: unknown[]) => unknown[] };
    const all = jest.spyOn(statement, 'all');
    try {
      const asked = async (country?: string) => {
        all.mockClear();
        await texts(store, 'Lihovarská 5', country);
        return all.mock.contexts.map((c) => /FROM (fts_\w+) JOIN/.exec(String((c as { source?: string }).source))?.[1]).filter(Boolean).sort();
      };
      expect(await asked()).toEqual(['fts_address_cz', 'fts_address_sk']); // a number in the text: addresses only
      expect(await asked('SK')).toEqual(['fts_address_sk']);
    } finally {
      all.mockRestore();
    }
    // A typo pass reads the country's own vocabulary.
    expect(await texts(store, 'Lihovarka 79', 'CZ')).toEqual(['Lihovarská 79, 746 01 Opava']);
    // Removed and rewritten documents leave their country's tables.
    const matches = (table: string, term: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).all(`"${term}"`) as unknown[]).length;
      } finally {
        db.close();
      }
    };
    expect(matches('fts_address_cz', '79')).toBe(1);
    await store.upsert([{ ...opava()[2], street_number: '80' }]);
    expect([matches('fts_address_cz', '79'), matches('fts_address_cz', '80')]).toEqual([0, 1]);
    await store.remove([opava()[2].place_id]);
    expect(matches('fts_address_cz', '80')).toBe(0);
    expect(await texts(store, 'Lihovarská 80', 'CZ')).toEqual([]);
    await store.close();
  });

  it('serves and writes a schema 2 file as it is, and the next version of a country is built in the new layout', async () => {
    const file = join(dir.path, 'old.sqlite');
    writeSchema2File(file, [...opava(), ...kosice()]);
    const store = new SqlitePlacesStore(file);
    await store.init();
    expect(tables(file)).toEqual(['fts_address', 'fts_area']);
    expect(await texts(store, 'Lihovarská', 'CZ')).toEqual(['Lihovarská 79, 746 01 Opava']);
    expect(await texts(store, 'Lihovarka 5', 'SK')).toEqual(['Lihovarská 5, 040 18 Košice - Krásna']);
    await store.upsert([address('opava', 'Lihovarská', '81')]);
    expect(await texts(store, 'Lihovarská 81', 'CZ')).toEqual(['Lihovarská 81, 746 01 Opava']);

    const build = await store.beginVersion({ country: 'CZ', replace: 'all' });
    await build.load(
      (async function* () {
        yield opava();
      })(),
    );
    await build.seal();
    await build.commit();
    expect(tablesWithRows(file)).toEqual(['fts_address_cz', 'fts_address_sk', 'fts_area_cz', 'fts_area_sk']);
    expect(await texts(store, 'Lihovarská')).toEqual(['Lihovarská 5, 040 18 Košice - Krásna', 'Lihovarská 79, 746 01 Opava']);
    expect(await texts(store, 'Lihovarská 81', 'CZ')).toEqual([]);
    await store.close();
  });
});

/** A file as schema 2 wrote it (its DDL as that version had it): one contentless FTS5 table per kind for all countries. */
function writeSchema2File(file: string, docs: PlaceDoc[]): void {
  const db = new Database(file);
  const fts = `tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1, prefix = '1 2 3'`;
  db.exec(`
CREATE TABLE places (rid INTEGER PRIMARY KEY, place_id TEXT NOT NULL UNIQUE, country TEXT NOT NULL, object TEXT NOT NULL, name TEXT NOT NULL,
  region_id TEXT, county_id TEXT, municipality_id TEXT, postal_code TEXT, doc TEXT NOT NULL);
CREATE VIRTUAL TABLE fts_address USING fts5(tokens, ${fts});
CREATE VIRTUAL TABLE fts_area USING fts5(tokens, ${fts});
CREATE VIRTUAL TABLE fts_address_vocab USING fts5vocab(fts_address, row);
CREATE VIRTUAL TABLE fts_area_vocab USING fts5vocab(fts_area, row);
CREATE VIRTUAL TABLE places_rtree USING rtree(id, min_lat, max_lat, min_lng, max_lng);
CREATE TABLE dataset_versions (country TEXT PRIMARY KEY, version TEXT NOT NULL);
CREATE INDEX places_country_object ON places (country, object);
PRAGMA user_version = 2;`);
  const insert = db.prepare(`INSERT INTO places (place_id, country, object, name, region_id, county_id, municipality_id, postal_code, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const d of docs) {
    const rid = Number(insert.run(d.place_id, d.country, d.object, d.name, d.region_id, d.county_id, d.municipality_id, d.postal_code, JSON.stringify(packedDoc(d))).lastInsertRowid);
    db.prepare(`INSERT INTO ${d.object === 'address' ? 'fts_address' : 'fts_area'} (rowid, tokens) VALUES (?, ?)`).run(rid, docTokens(d).join(' '));
    if (d.lat !== null && d.lng !== null) db.prepare(`INSERT INTO places_rtree (id, min_lat, max_lat, min_lng, max_lng) VALUES (?, ?, ?, ?, ?)`).run(rid, d.lat, d.lat, d.lng, d.lng);
  }
  db.close();
}
