import { AddressCorrection, CorrectedField, Place } from '@lookup/contracts';
import { editDistance, fuzziness } from '../search/fuzzy';
import { AddressInput, fieldWords, TypedWord } from './validate-input';

/** One candidate address compared with the typed one: what would have to change for them to be the same. */
export interface CandidateMatch {
  place: Place;
  corrections: AddressCorrection[];
}

type WordMatch = 'exact' | 'fuzzy' | 'none';

function wordMatch(w: TypedWord, field: string[]): WordMatch {
  if (field.some((f) => f === w.folded || (w.prefix && f.startsWith(w.folded)))) return 'exact';
  const allowed = fuzziness(w.folded);
  // The search's own typo rule, and the first letter kept (as its prefix_length 1 does).
  if (allowed > 0 && field.some((f) => f[0] === w.folded[0] && editDistance(w.folded, f, allowed) <= allowed)) return 'fuzzy';
  return 'none';
}

/** All words of a part against one field: exact only if every word is. */
function partMatch(words: TypedWord[], field: string[]): WordMatch {
  const each = words.map((w) => wordMatch(w, field));
  if (each.includes('none')) return 'none';
  return each.includes('fuzzy') ? 'fuzzy' : 'exact';
}

/** What stands in the street's place: a village without streets is written with its part (`Podvihov 59`). */
function streetOf(p: Place): string | null {
  return p.street ?? p.district ?? p.municipality ?? null;
}

/** The town after the postal code in the formatted address (a postal place such as `Praha 9`, where the register has one). */
function postalTown(p: Place): string | null {
  const last = p.formatted_address?.split(', ').pop();
  return last ? last.replace(/^[\d\s-]+/, '') || null : null;
}

const digitsOf = (s: string | null | undefined) => (s ?? '').replace(/[\s-]/g, '');
const lower = (s: string | null | undefined) => (s ? s.toLowerCase() : null);

/**
 * Pure: the corrections that turn the typed address into this candidate, or null when the
 * candidate is not the typed address at all: a house number that differs, a street that is
 * not even a misspelling of it, or a town that is neither named (nor misspelt) nor confirmed
 * by the postal code.
 */
export function matchCandidate(input: AddressInput, p: Place): CandidateMatch | null {
  if (p.object !== 'address') return null;
  const out: AddressCorrection[] = [];
  const fix = (field: CorrectedField, given: string | null, value: string | null | undefined) => out.push({ field, given, value: value ?? null });

  const { cp, co, lone } = input.numbers;
  const sn = lower(p.street_number);
  const bn = lower(p.building_number);
  if ((cp && cp !== sn) || (co && co !== bn) || (lone && lone !== sn && lone !== bn)) return null;
  if (cp || co || lone) {
    if (sn && !cp && lone !== sn) fix('street_number', null, p.street_number);
    if (bn && !co && lone !== bn) fix('building_number', null, p.building_number);
  }

  const streetWords = fieldWords(streetOf(p));
  const townWords = [...fieldWords(p.municipality), ...fieldWords(p.district), ...fieldWords(postalTown(p))];
  if (input.street) {
    const m = partMatch(input.street.words, streetWords);
    if (m === 'none') return null;
    if (m === 'fuzzy') fix('street', input.street.typed, streetOf(p));
  }

  // Loose words of `query`: each goes to the field it matches best, street first.
  const fuzzyStreet: string[] = [];
  const fuzzyTown: string[] = [];
  const unmatched: string[] = [];
  let streetNamed = !!input.street;
  for (const w of input.loose) {
    const s = wordMatch(w, streetWords);
    const t = wordMatch(w, townWords);
    if (s === 'exact' || t === 'exact') streetNamed ||= s === 'exact';
    else if (s === 'fuzzy') {
      fuzzyStreet.push(w.typed);
      streetNamed = true;
    }
    else if (t === 'fuzzy') fuzzyTown.push(w.typed);
    else unmatched.push(w.typed);
  }
  if (!streetNamed && p.street) return null;
  if (fuzzyStreet.length) fix('street', fuzzyStreet.join(' '), streetOf(p));

  const postalOk = input.postal ? digitsOf(p.postal_code) === input.postal.digits : null;
  const town = input.municipality ? partMatch(input.municipality.words, townWords) : null;
  const townGiven = input.municipality || fuzzyTown.length || unmatched.length;
  // A wrong town is only corrected when the postal code vouches for the address.
  if ((town === 'none' || unmatched.length) && postalOk !== true) return null;
  if (town && town !== 'exact') fix('municipality', input.municipality!.typed, p.municipality);
  else if (!input.municipality && (fuzzyTown.length || unmatched.length)) fix('municipality', [...fuzzyTown, ...unmatched].join(' '), p.municipality);
  if (postalOk === false) fix('postal_code', input.postal!.typed, p.postal_code);
  // A misspelt street in a town that is not the one typed either: two independent errors are a guess, not a correction.
  const streetFixed = out.some((c) => c.field === 'street');
  if (streetFixed && out.some((c) => c.field === 'municipality' || c.field === 'postal_code')) return null;
  // Neither town nor postal code: the address is not complete without them.
  if (!townGiven && !input.postal && !input.loose.some((w) => wordMatch(w, townWords) === 'exact')) {
    fix('municipality', null, p.municipality);
    fix('postal_code', null, p.postal_code);
  }
  return { place: p, corrections: out };
}
