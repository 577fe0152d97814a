import { CandidateQuery, nearBox, NearClause, TermClause } from './candidate-query';
import { expansionKey } from './typo-prefix';

export const SQLITE_TABLES = { docs: 'places', addressFts: 'fts_address', areaFts: 'fts_area', rtree: 'places_rtree' } as const;

export interface SqlRequest {
  sql: string;
  params: Array<string | number>;
}

/** FTS5 syntax for one term; tokens are letters and digits only, quoted anyway. */
function ftsTerm(t: TermClause, expansions: Record<string, string[]>): string {
  if (t.mode === 'prefix') return `"${t.value}"*`;
  if (t.mode === 'fuzzyPrefix') {
    // Corrected starts; none in the vocabulary leaves the typed start itself (it finds nothing, as it should).
    const starts = expansions[expansionKey({ mode: 'fuzzyPrefix', value: t.value })] ?? [];
    const all = starts.length ? starts : [t.value];
    return all.length === 1 ? `"${all[0]}"*` : `(${all.map((a) => `"${a}"*`).join(' OR ')})`;
  }
  if (t.mode === 'fuzzy') {
    const alts = expansions[expansionKey({ mode: 'fuzzy', value: t.value })] ?? [];
    const all = [t.value, ...alts.filter((a) => a !== t.value)];
    return all.length === 1 ? `"${t.value}"` : `(${all.map((a) => `"${a}"`).join(' OR ')})`;
  }
  return `"${t.value}"`;
}

/** Pure: the FTS5 MATCH expression (every term, AND). */
export function ftsMatch(terms: TermClause[], expansions: Record<string, string[]> = {}): string {
  return terms.map((t) => ftsTerm(t, expansions)).join(' AND ');
}

/** The request's filters on the documents table (`p`). */
function docFilters(q: CandidateQuery): { where: string[]; params: Array<string | number> } {
  const where = [`p.object IN (${q.objects.map(() => '?').join(', ')})`];
  const params: Array<string | number> = [...q.objects];
  if (q.countries && q.countries.length > 0) {
    where.push(`p.country IN (${q.countries.map(() => '?').join(', ')})`);
    params.push(...q.countries);
  }
  if (q.contextIds && q.contextIds.length > 0) {
    const list = q.contextIds.map(() => '?').join(', ');
    where.push(`(p.region_id IN (${list}) OR p.county_id IN (${list}) OR p.municipality_id IN (${list}) OR p.place_id IN (${list}))`);
    for (let i = 0; i < 4; i++) params.push(...q.contextIds);
  }
  if (q.postalPrefix) {
    where.push(`p.postal_code LIKE ?`);
    params.push(`${q.postalPrefix}%`);
  }
  return { where, params };
}

/**
 * Pure: candidates of one FTS table with the filters of the request. Addresses live in their
 * own FTS table so a street or municipality search never walks address postings. A request
 * with `near` is buildSqliteNearSearch's.
 */
export function buildSqliteSearch(q: CandidateQuery, ftsTable: string, expansions: Record<string, string[]> = {}): SqlRequest | null {
  if (q.terms.length === 0) return null;
  if (q.near) return buildSqliteNearSearch(q, q.near, ftsTable, expansions);
  const filters = docFilters(q);
  const where = [`${ftsTable} MATCH ?`, ...filters.where];
  const params: Array<string | number> = [ftsMatch(q.terms, expansions), ...filters.params];
  params.push(q.size);
  return {
    sql: `SELECT p.doc FROM ${ftsTable} JOIN ${SQLITE_TABLES.docs} p ON p.rowid = ${ftsTable}.rowid WHERE ${where.join(' AND ')} LIMIT ?`,
    params,
  };
}

/**
 * How a near search finds the matches in its box. The R*Tree answers "where is this row" only
 * by a lookup per id (about 0.7 µs on the whole CZ register: a statement on its rowid table,
 * then the node read as a blob), while the full-text index lists matches at about 0.05 µs each
 * and the box its points at about 0.04 µs each.
 * - `matches`: the text matches drive, each looked up in the R*Tree: the cost grows with the
 *   matches only (3 000 of them: 2 ms); the plan for a rare text, and for streets.
 * - `box`: the box's points drive, each checked against the matches gathered once into a list
 *   (`IN`, about 0.2 µs a match): the cost grows with the matches and the points of the box
 *   (at NEAR_KM 25 000 to 70 000 on the CZ register outside Prague: 1-3 ms); the plan for a
 *   common street name (`husova`, 10 300 address points: 7 ms by matches, 3-7 ms by box).
 * The store counts the matches (buildSqliteMatchCount) to choose, and asks nothing near the
 * point past NEAR_SCAN matches.
 */
export type NearPlan = 'matches' | 'box';

/** Below this many matches of a near search, `matches` is its plan; `box` from here on. */
export const NEAR_BY_MATCHES = 3000;

/**
 * Past this many text matches SQLite finds no candidates near the point: only a start of a
 * word or two (`nov`, 98 000 matches; `horni`, 59 000) matches more than any street name of
 * the CZ register (`nadrazni`, 14 200), and gathering them would cost more than the search
 * (0.2 µs each); the point then orders the text candidates only, as before. OpenSearch, whose
 * geo filter is an index, has no such limit: there the engines may differ.
 */
export const NEAR_SCAN = 20_000;

/** Pure: the rows of one FTS table the terms match, counted up to `limit` (the index only). */
export function buildSqliteMatchCount(q: CandidateQuery, ftsTable: string, expansions: Record<string, string[]>, limit: number): SqlRequest {
  return { sql: `SELECT count(*) FROM (SELECT 1 FROM ${ftsTable} WHERE ${ftsTable} MATCH ? LIMIT ?)`, params: [ftsMatch(q.terms, expansions), limit] };
}

/**
 * Pure: the candidates of one FTS table within the box of `near`, nearest first (ties by
 * place_id), at most `size`, among the first `scan` text matches (either plan); each row `doc`
 * and `d` (squared distance in degrees of latitude, the longitude scaled by the point's cosine:
 * an order, not metres). The joins are `CROSS JOIN` so SQLite keeps the plan's order (see
 * NearPlan; with the tables' statistics of a whole register it may prefer the (country, object)
 * index and look every address of the country up in the R*Tree); only the nearest rows read
 * their document.
 */
export function buildSqliteNearSearch(
  q: CandidateQuery,
  near: NearClause,
  ftsTable: string,
  expansions: Record<string, string[]> = {},
  plan: NearPlan = 'matches',
  scan = NEAR_SCAN,
): SqlRequest {
  const b = nearBox(near);
  const cos = Math.cos((near.lat * Math.PI) / 180);
  const filters = docFilters(q);
  const { rtree, docs } = SQLITE_TABLES;
  const match = ftsMatch(q.terms, expansions);
  const inBox = ['r.max_lat >= ?', 'r.min_lat <= ?', 'r.max_lng >= ?', 'r.min_lng <= ?'];
  const params: Array<string | number> = [near.lat, near.lat, near.lng, near.lng, cos * cos];
  let from: string;
  let where: string[];
  if (plan === 'matches') {
    from = `(SELECT rowid AS id FROM ${ftsTable} WHERE ${ftsTable} MATCH ? LIMIT ?) f CROSS JOIN ${rtree} r ON r.id = f.id`;
    where = [...inBox, ...filters.where];
    params.push(match, scan, b.minLat, b.maxLat, b.minLng, b.maxLng);
  } else {
    // `+r.id`: the list is checked per point, never handed to the R*Tree as ids to look up one by one.
    from = `${rtree} r`;
    where = [...inBox, `+r.id IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ? LIMIT ?)`, ...filters.where];
    params.push(b.minLat, b.maxLat, b.minLng, b.maxLng, match, scan);
  }
  params.push(...filters.params, q.size);
  return {
    sql:
      `SELECT p.doc, n.d FROM (SELECT r.id, (r.min_lat - ?) * (r.min_lat - ?) + (r.min_lng - ?) * (r.min_lng - ?) * ? AS d ` +
      `FROM ${from} CROSS JOIN ${docs} p ON p.rowid = r.id WHERE ${where.join(' AND ')} ORDER BY d, p.place_id LIMIT ?) n ` +
      `CROSS JOIN ${docs} p ON p.rowid = n.id`,
    params,
  };
}

/**
 * Pure: address points in a lat/lng box (the R*Tree), exact distance is checked by the caller.
 * `CROSS JOIN` keeps the R*Tree as the outer loop (SQLite never reorders it): with a country
 * filter and the register's statistics the planner preferred the (country, object) index and
 * probed the R*Tree once per address of the country, 2-3 s a reverse lookup on the whole CZ
 * register instead of milliseconds.
 */
export function buildSqliteNearby(box: { minLat: number; maxLat: number; minLng: number; maxLng: number }, countries: string[] | null, size: number): SqlRequest {
  const params: Array<string | number> = [box.minLat, box.maxLat, box.minLng, box.maxLng];
  let country = '';
  if (countries && countries.length > 0) {
    country = ` AND p.country IN (${countries.map(() => '?').join(', ')})`;
    params.push(...countries);
  }
  params.push(size);
  return {
    sql:
      `SELECT p.doc FROM ${SQLITE_TABLES.rtree} r CROSS JOIN ${SQLITE_TABLES.docs} p ON p.rowid = r.id ` +
      `WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lng >= ? AND r.min_lng <= ? AND p.object = 'address'${country} LIMIT ?`,
    params,
  };
}
