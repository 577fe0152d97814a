import { CandidateQuery, TermClause } from './candidate-query';
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

/**
 * Pure: candidates of one FTS table with the filters of the request. Addresses live in their
 * own FTS table so a street or municipality search never walks address postings.
 */
export function buildSqliteSearch(q: CandidateQuery, ftsTable: string, expansions: Record<string, string[]> = {}): SqlRequest | null {
  if (q.terms.length === 0) return null;
  const where = [`${ftsTable} MATCH ?`];
  const params: Array<string | number> = [ftsMatch(q.terms, expansions)];
  where.push(`p.object IN (${q.objects.map(() => '?').join(', ')})`);
  params.push(...q.objects);
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
  params.push(q.size);
  return {
    sql: `SELECT p.doc FROM ${ftsTable} JOIN ${SQLITE_TABLES.docs} p ON p.rowid = ${ftsTable}.rowid WHERE ${where.join(' AND ')} LIMIT ?`,
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
