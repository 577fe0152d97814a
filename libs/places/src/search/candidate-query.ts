import { CountryCode, PlaceObject } from '@lookup/contracts';
import { ParsedQuery } from './query-parser';
import { fuzziness } from './fuzzy';

/** One term every candidate must contain. */
export interface TermClause {
  value: string;
  mode: 'exact' | 'prefix' | 'fuzzy';
  /** Allowed edits when mode is fuzzy. */
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
}

/** Candidates fetched per pass: enough for ranking to reorder, small enough for 10 ms. */
export const CANDIDATES = 300;

export type Pass = 'strict' | 'fuzzy';

/** Pure: the terms of one pass. The fuzzy pass relaxes whole words of 4+ letters; numbers and prefixes stay as typed. */
export function termsFor(parsed: ParsedQuery, pass: Pass): TermClause[] {
  return parsed.tokens.map((t): TermClause => {
    if (t.prefix) return { value: t.folded, mode: 'prefix' };
    const n = t.kind === 'word' ? fuzziness(t.folded) : 0;
    if (pass === 'fuzzy' && n > 0) return { value: t.folded, mode: 'fuzzy', fuzziness: n };
    return { value: t.folded, mode: 'exact' };
  });
}
