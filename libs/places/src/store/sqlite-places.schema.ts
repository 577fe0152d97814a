import { COUNTRY_CODES, CountryCode } from '@lookup/contracts';
import { SqliteDatabase } from '@lookup/shared/search';
import { SQLITE_TABLES as T } from '../search/sqlite-query.builder';

/**
 * Bumped when the layout changes. A file older than version 2 is rebuilt (it only holds the
 * catalogue, which the bootstrap imports again). Version 2 files, one full-text table per kind
 * for every country, are served as they are (FtsLayout `shared`) until the next import of any
 * country builds a new file; version 3 has one full-text table per kind and country.
 */
export const SCHEMA_VERSION = 3;
const SHARED_FTS_VERSION = 2;

/**
 * Where a document's words are. `country`: a table per kind and country (`fts_address_cz`): a
 * search of one country reads only that country's postings; with a second country's rows in
 * the same table a CZ search read theirs too (with a country of half CZ's size, its p50 1.06x
 * sharing only numbers and postal codes, 1.20x sharing every word, p99 1.07x and 1.34x; in its
 * own tables 0.98-0.99x: `bench/sqlite-countries.ts`). `shared`: the version 2 layout, one table per kind.
 */
export type FtsLayout = 'shared' | 'country';
export type FtsKind = 'address' | 'area';

export function ftsTableName(layout: FtsLayout, kind: FtsKind, country: CountryCode): string {
  const shared = kind === 'address' ? T.addressFts : T.areaFts;
  return layout === 'shared' ? shared : `${shared}_${country.toLowerCase()}`;
}

/** Every full-text table of a layout. */
export function ftsTables(layout: FtsLayout): string[] {
  return layout === 'shared' ? [T.addressFts, T.areaFts] : COUNTRY_CODES.flatMap((c) => [ftsTableName(layout, 'address', c), ftsTableName(layout, 'area', c)]);
}

// Contentless FTS5 (the documents are in `places`), tokens pre-folded by search/doc-tokens.ts;
// prefix indexes make the autocomplete's last word (`Lih`, `8`) cheap.
const FTS = `tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1, prefix = '1 2 3'`;

/** The dataset version each country's documents come from (written by the pipeline's commit). */
export const VERSIONS_TABLE = 'dataset_versions';

/** Added with the store's municipalityPostalCodes: a file written before it gets it when a writer opens it. */
export const MUNICIPALITY_POSTAL_INDEX = 'places_municipality_postal';

export const SECONDARY_INDEXES = [
  `CREATE INDEX IF NOT EXISTS places_country_object ON ${T.docs} (country, object)`,
  // The postal codes of a municipality's documents, read from the index alone (municipalityPostalCodes).
  `CREATE INDEX IF NOT EXISTS ${MUNICIPALITY_POSTAL_INDEX} ON ${T.docs} (municipality_id, postal_code)`,
];

const ftsDdl = (layout: FtsLayout) =>
  ftsTables(layout)
    .map((t) => `CREATE VIRTUAL TABLE IF NOT EXISTS ${t} USING fts5(tokens, ${FTS});\nCREATE VIRTUAL TABLE IF NOT EXISTS ${t}_vocab USING fts5vocab(${t}, row);`)
    .join('\n');

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
CREATE VIRTUAL TABLE IF NOT EXISTS ${T.rtree} USING rtree(id, min_lat, max_lat, min_lng, max_lng);
CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (country TEXT PRIMARY KEY, version TEXT NOT NULL);
`;

/** The layout of an open file (a reader's too: it reads the version, it does not migrate). */
export function ftsLayoutOf(db: SqliteDatabase): FtsLayout {
  return (db.pragma('user_version', { simple: true }) as number) === SHARED_FTS_VERSION ? 'shared' : 'country';
}

/** Creates or brings a file to the current schema; returns its full-text layout. */
export function migrate(db: SqliteDatabase): FtsLayout {
  const version = db.pragma('user_version', { simple: true }) as number;
  const layout = ftsLayoutOf(db);
  if (version < SHARED_FTS_VERSION) {
    // Version 1 kept only the catalogue as JSON rows: drop it, the bootstrap imports again.
    for (const t of [...ftsTables('shared'), ...ftsTables('country')].flatMap((f) => [`${f}_vocab`, f]).concat([T.rtree, T.docs])) db.exec(`DROP TABLE IF EXISTS ${t}`);
  }
  db.exec(SCHEMA);
  db.exec(ftsDdl(layout));
  for (const s of SECONDARY_INDEXES) db.exec(s);
  db.pragma(`user_version = ${layout === 'shared' ? SHARED_FTS_VERSION : SCHEMA_VERSION}`);
  return layout;
}
