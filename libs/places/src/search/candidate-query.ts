import { CountryCode, PlaceObject } from '@lookup/contracts';
import { ParsedQuery } from './query-parser';
import { fuzziness } from './fuzzy';

/** One term every candidate must contain. */
export interface TermClause {
  value: string;
  /** `fuzzyPrefix`: the word being typed, with a typo (see typo-prefix.ts). */
  mode: 'exact' | 'prefix' | 'fuzzy' | 'fuzzyPrefix';
  /** Allowed edits when mode is fuzzy or fuzzyPrefix. */
  fuzziness?: number;
}

/**
 * Engine-neutral request for candidates: the pure builders turn it into SQL or query DSL.
 * Engines only find candidates (recall); the shared ranker orders them, so both engines give
 * the same answers whenever the candidate set fits in `size`.
 */
export interface CandidateQuery {
  objects: PlaceObject[];
  countries: CountryCode[] | null;
  terms: TermClause[];
  /** Strict context: the region, county or municipality ids a candidate must lie in. */
  contextIds: string[] | null;
  /** Strict postal-code refiner: digits a candidate's postal code starts with. */
  postalPrefix: string | null;
  size: number;
  /**
   * Only the candidates within `km` of a point (the box of `nearBox`), nearest first: the
   * `around_latlng` bias's own candidates (see `nearCandidateQuery`). Absent: no place filter.
   */
  near?: NearClause | null;
}

export interface NearClause {
  lat: number;
  lng: number;
  km: number;
}

/** A lat/lng box in degrees. */
export interface LatLngBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/** Candidates fetched per pass: enough for ranking to reorder, small enough for 10 ms. */
export const CANDIDATES = 300;

/**
 * Radius of the candidates near an `around_latlng` point (half the side of their box). The bias
 * (ranking.ts) gives 2.5 points at the point, half at 5 km, 0.63 at 15 km: by 15 km three
 * quarters of it are gone, and beyond, one match differs from another 100 km away by half a
 * point at most, while the cost grows with the box (SQLite's `box` plan reads every point in
 * it: on the whole CZ register 25 000-70 000 points at 15 km, 85 000-170 000 at 30 km). The
 * 374 near calls of the typed golden queries, each with a point at its municipality, on the
 * whole CZ register: p50 1.9 ms at any of these radii, p90 6.6 ms at 15 km, 9.8 at 20, 16.7 at 30.
 */
export const NEAR_KM = 15;

const KM_PER_DEGREE = 111.32;

/**
 * Pure: the box both engines filter near candidates by (SQLite's R*Tree, OpenSearch's
 * geo_bounding_box), so they filter the same points; `km` is half its side. SQLite's reverse
 * lookup (SqlitePlacesStore.nearby) reads its box the same way, `slackDeg` wider on each side.
 */
export function nearBox(n: NearClause, slackDeg = 0): LatLngBox {
  const dLat = n.km / KM_PER_DEGREE + slackDeg;
  const dLng = n.km / (KM_PER_DEGREE * Math.max(0.01, Math.cos((n.lat * Math.PI) / 180))) + slackDeg;
  // Clamped to valid degrees (OpenSearch refuses others); no box wraps around the antimeridian.
  return { minLat: Math.max(-90, n.lat - dLat), maxLat: Math.min(90, n.lat + dLat), minLng: Math.max(-180, n.lng - dLng), maxLng: Math.min(180, n.lng + dLng) };
}

export type Pass = 'strict' | 'fuzzy';

/**
 * Pure: the terms of one pass. The typo pass relaxes words of 4+ letters, the one being typed
 * too (as a start with a typo); numbers, postal codes and abbreviations (`sv.`) stay as typed.
 */
export function termsFor(parsed: ParsedQuery, pass: Pass): TermClause[] {
  return parsed.tokens.map((t): TermClause => {
    const n = pass === 'fuzzy' && t.kind === 'word' && !t.fixed ? fuzziness(t.folded) : 0;
    if (t.prefix) return n > 0 ? { value: t.folded, mode: 'fuzzyPrefix', fuzziness: n } : { value: t.folded, mode: 'prefix' };
    if (n > 0) return { value: t.folded, mode: 'fuzzy', fuzziness: n };
    return { value: t.folded, mode: 'exact' };
  });
}
