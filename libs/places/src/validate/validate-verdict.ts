import { Place, PlaceValidation, ValidationStatus, ValidationVerdict } from '@lookup/contracts';
import { CandidateMatch, matchCandidate } from './address-match';
import { AddressInput, hasNumber } from './validate-input';

const STATUS: Record<Exclude<ValidationVerdict, 'ambiguous'>, ValidationStatus> = { exact: 'valid', corrected: 'unsure', not_found: 'invalid' };

/** The municipality a postal code's own document names (its post office's town), for a candidate; null where unknown. */
export type OfficeTownOf = (p: Place) => string | null;

/** Every candidate compared once, in the order the searches ranked them, each address once. */
export function viableMatches(input: AddressInput, places: Place[], officeTown: OfficeTownOf = () => null): CandidateMatch[] {
  const seen = new Set<string>();
  const out: CandidateMatch[] = [];
  for (const p of places) {
    if (seen.has(p.place_id)) continue;
    seen.add(p.place_id);
    const m = matchCandidate(input, p, officeTown(p));
    if (m) out.push(m);
  }
  return out;
}

/**
 * Pure: the verdict over the candidates the searches found. The fewest corrections win, then
 * the closest (`CandidateMatch.cost`); one winner without corrections is exact, one with them is
 * corrected, several equally good ones are ambiguous (up to `limit` of them, closest first,
 * then in search order), none is not_found.
 */
export function decideValidation(input: AddressInput, places: Place[], limit: number, officeTown?: OfficeTownOf): PlaceValidation {
  const matches = viableMatches(input, places, officeTown);
  if (matches.length === 0) return answer('not_found', STATUS.not_found, null, [], []);
  const fewest = Math.min(...matches.map((m) => m.corrections.length));
  const tied = matches.filter((m) => m.corrections.length === fewest);
  const closest = Math.min(...tied.map((m) => m.cost));
  // Stable: equally close ones keep the search's order.
  const top = tied.filter((m) => m.cost === closest).length === 1 ? tied.filter((m) => m.cost === closest) : [...tied].sort((a, b) => a.cost - b.cost);
  if (top.length > 1) {
    // No house number typed: many addresses fit because the input is short of one.
    const status: ValidationStatus = hasNumber(input) ? 'many' : 'insufficient';
    return answer('ambiguous', status, null, [], top.slice(0, limit).map((m) => m.place));
  }
  const [only] = top;
  const verdict = only.corrections.length === 0 ? 'exact' : 'corrected';
  return answer(verdict, STATUS[verdict], only.place, only.corrections, []);
}

function answer(verdict: ValidationVerdict, status: ValidationStatus, place: Place | null, corrections: PlaceValidation['corrections'], candidates: Place[]): PlaceValidation {
  return { object: 'validation', verdict, status, place, corrections, candidates };
}

/** Whether a further, looser search could still change the answer. */
export function isSettled(v: PlaceValidation): boolean {
  return v.verdict !== 'not_found';
}
