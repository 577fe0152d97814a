import { SqliteDatabase } from '@lookup/shared/search';
import { SQLITE_TABLES as T } from '../search/sqlite-query.builder';

/** Bumped when the layout changes; an older file is rebuilt (it only holds imported data). */
export const SCHEMA_VERSION = 2;

// Contentless FTS5 (the documents are in `places`), tokens pre-folded by search/doc-tokens.ts;
// prefix indexes make the autocomplete's last word (`Lih`, `8`) cheap.
const FTS = `tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1, prefix = '1 2 3'`;

/** The dataset version each country's documents come from (written by the pipeline's commit). */
export const VERSIONS_TABLE = 'dataset_versions';

export const SECONDARY_INDEXES = [`CREATE INDEX IF NOT EXISTS places_country_object ON ${T.docs} (country, object)`];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${T.docs} (
  rid INTEGER PRIMARY KEY,
  place_id TEXT NOT NULL UNIQUE,
  country TEXT NOT NULL,
  object TEXT NOT NULL,
  name TEXT NOT NULL,
  region_id TEXT,
  county_id TEXT,
  municipality_id TEXT,
  postal_code TEXT,
  doc TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.addressFts} USING fts5(tokens, ${FTS});
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.areaFts} USING fts5(tokens, ${FTS});
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.addressFts}_vocab USING fts5vocab(${T.addressFts}, row);
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.areaFts}_vocab USING fts5vocab(${T.areaFts}, row);
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.rtree} USING rtree(id, min_lat, max_lat, min_lng, max_lng);
CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (country TEXT PRIMARY KEY, version TEXT NOT NULL);
`;

export function migrate(db: SqliteDatabase): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < SCHEMA_VERSION) {
    // Version 1 kept only the catalogue as JSON rows: drop it, the bootstrap imports again.
    for (const t of [`${T.addressFts}_vocab`, `${T.areaFts}_vocab`, T.addressFts, T.areaFts, T.rtree, T.docs]) db.exec(`DROP TABLE IF EXISTS ${t}`);
  }
  db.exec(SCHEMA);
  for (const s of SECONDARY_INDEXES) db.exec(s);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
