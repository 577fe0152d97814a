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
}

/** Candidates fetched per pass: enough for ranking to reorder, small enough for 10 ms. */
export const CANDIDATES = 300;

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
