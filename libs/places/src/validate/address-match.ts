import { AddressCorrection, CorrectedField, Place } from '@lookup/contracts';
import { editDistance, fuzziness } from '../search/fuzzy';
import { AddressInput, fieldNumbers, fieldWords, TypedWord } from './validate-input';

/** One candidate address compared with the typed one: what would have to change for them to be the same. */
export interface CandidateMatch {
  place: Place;
  corrections: AddressCorrection[];
  /**
   * How far apart they are beyond the corrections, to tell equally corrected candidates apart:
   * typing distance of the misspelt words, words of the candidate's street or town nobody typed
   * (`Osová` is closer to `Osová` than to `Osová Bítýška`), an evidence number where none was typed.
   */
  cost: number;
}

/** 0 for the same word (or an abbreviation of it), the typing distance for a misspelling the search would also accept, null for none. */
function distance(w: TypedWord, f: string): number | null {
  if (f === w.folded || (w.prefix && f.startsWith(w.folded))) return 0;
  const allowed = fuzziness(w.folded);
  // The search's own typo rule, and the first letter kept (as its prefix_length 1 does).
  if (allowed === 0 || f[0] !== w.folded[0]) return null;
  const d = editDistance(w.folded, f, allowed);
  return d <= allowed ? d : null;
}

/** A field's words and which of them some typed word has met. */
class Field {
  readonly words: string[];
  readonly met: boolean[];
  constructor(text: string | null | undefined) {
    this.words = fieldWords(text);
    this.met = this.words.map(() => false);
  }
  /** The closest word's distance and where it is (nothing marked); d null for none. */
  best(w: TypedWord): { d: number | null; at: number } {
    let d: number | null = null;
    let at = -1;
    this.words.forEach((f, i) => {
      const x = distance(w, f);
      if (x !== null && (d === null || x < d)) [d, at] = [x, i];
    });
    return { d, at };
  }
  /** The closest word's distance, marking that word met; null for none. */
  match(w: TypedWord): number | null {
    const b = this.best(w);
    if (b.at >= 0) this.met[b.at] = true;
    return b.d;
  }
  /** Whether the word is one of the field's, exactly (nothing marked). */
  has(w: TypedWord): boolean {
    return this.words.some((f) => distance(w, f) === 0);
  }
  get unmet(): number {
    return this.met.filter((m) => !m).length;
  }
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

/**
 * A city of boroughs written as its postal address writes it, without the borough: `Bratislava`
 * for `Bratislava - Staré Mesto`, `Košice` for `Košice - Krásna` (the part before ` - `, whole).
 */
function cityWhole(municipality: string | null | undefined, typed: TypedWord[]): boolean {
  const city = municipality?.split(' - ')[0];
  if (!city || city === municipality) return false;
  const words = new Field(city);
  return words.words.every((f) => typed.some((w) => distance(w, f) === 0));
}

/** The two ends of a house-number range (`1-3`, `12a-12c`), else null. */
function rangeEnds(n: string): string[] | null {
  const m = /^(\d+[a-z]?)\s*-\s*(\d+[a-z]?)$/.exec(n);
  return m ? [m[1]!, m[2]!] : null;
}

const digitsOf = (s: string | null | undefined) => (s ?? '').replace(/[\s-]/g, '');
const lower = (s: string | null | undefined) => (s ? s.toLowerCase() : null);
const sum = (ds: (number | null)[]) => ds.reduce<number>((a, d) => a + (d ?? 0), 0);

/**
 * Pure: the corrections that turn the typed address into this candidate, or null when the
 * candidate is not the typed address at all: a house number that differs, a street (or, in a
 * village without streets, the part) that is not even a misspelling of the typed one, a town
 * that is neither named (nor misspelt) nor confirmed by the postal code, a misspelt street in
 * a town that is not the typed one either, or a wrong postal code with a town that is not the
 * typed one (two independent errors are a guess, not a correction).
 */
export function matchCandidate(input: AddressInput, p: Place, officeTown: string | null = null): CandidateMatch | null {
  if (p.object !== 'address') return null;
  const out: AddressCorrection[] = [];
  const fix = (field: CorrectedField, given: string | null, value: string | null | undefined) => out.push({ field, given, value: value ?? null });
  let cost = 0;

  const { cp, co, evidence } = input.numbers;
  let { lone, others } = input.numbers;
  const sn = lower(p.street_number);
  const bn = lower(p.building_number);
  // A house number that is a range (AT `1-3`): typed, its ends are two numbers; one end alone is that house, corrected.
  const ends = bn && !cp && !co && lone ? rangeEnds(bn) : null;
  if (ends?.includes(lone!)) {
    if (!ends.every((x) => x === lone || others.includes(x))) fix('building_number', lone, p.building_number);
    [lone, others] = [bn, others.filter((x) => !ends.includes(x))];
  }
  if ((cp && cp !== sn) || (co && co !== bn) || (lone && lone !== sn && lone !== bn)) return null;
  // Every other number typed is the address's: in its street's or town's name, or its other house number.
  const named = others.length ? new Set(fieldNumbers([streetOf(p), p.municipality, p.district, postalTown(p)].filter(Boolean).join(' '))) : null;
  const otherHouse = (x: string) => (x === sn && lone !== sn) || (x === bn && lone !== bn);
  if (others.some((x) => !named!.has(x) && !otherHouse(x))) return null;
  if (cp || co || lone) {
    if (sn && !cp && lone !== sn && !others.includes(sn)) fix('street_number', null, p.street_number);
    if (bn && !co && lone !== bn && !others.includes(bn)) fix('building_number', null, p.building_number);
    if (sn && evidence !== !!p.formatted_number?.startsWith('č. ev.')) cost++;
  }

  const postalOk = input.postal ? digitsOf(p.postal_code) === input.postal.digits : null;
  // An address may be written with its postal code's post office town (`Sobětuchy 45, 537 01 Chrudim`), whole; not with another code typed.
  const office = new Field(postalOk !== false ? officeTown : null);
  const typedTown = [...input.loose, ...(input.municipality?.words ?? [])];
  const officeWhole = office.words.length > 0 && office.words.every((f) => typedTown.some((w) => w.folded === f));
  const street = new Field(streetOf(p));
  const town = new Field([p.municipality, p.district, postalTown(p), officeWhole ? officeTown : null].filter(Boolean).join(' '));
  const municipality = new Field(p.municipality);
  let streetFuzzy = false;
  if (input.street) {
    const ds = input.street.words.map((w) => street.match(w));
    if (ds.includes(null)) return null;
    cost += sum(ds);
    streetFuzzy = sum(ds) > 0;
    if (streetFuzzy) fix('street', input.street.typed, streetOf(p));
  }

  // Loose words of `query` (any order): each goes to the field it matches best, street first.
  const fuzzyStreet: string[] = [];
  const fuzzyTown: string[] = [];
  const unmatched: string[] = [];
  for (const w of input.loose) {
    // A word counts for the field it matches best: the same word names a village and its part (`Rančířov 86`).
    const s = street.best(w).d;
    const t = town.best(w).d;
    const toStreet = s === 0 || (s !== null && t !== 0);
    const toTown = t === 0 || (t !== null && !toStreet);
    if (toStreet) street.match(w);
    if (toTown) {
      town.match(w);
      municipality.match(w);
    }
    if (s === 0 || t === 0) continue;
    if (toStreet) fuzzyStreet.push(w.typed);
    else if (toTown) fuzzyTown.push(w.typed);
    else unmatched.push(w.typed);
    cost += s ?? t ?? 0;
  }
  // Nothing typed names the street: the typed municipality may, where a village's part shares its name.
  if (!p.street && !street.met.some(Boolean) && input.municipality && input.municipality.words.every((w) => street.has(w))) street.met.fill(true);
  if (!street.met.some(Boolean)) return null;
  if (fuzzyStreet.length) {
    fix('street', fuzzyStreet.join(' '), streetOf(p));
    streetFuzzy = true;
  }
  cost += street.unmet;

  let townFuzzy = false;
  let townWrong = unmatched.length > 0;
  if (input.municipality) {
    const ds = input.municipality.words.map((w) => [town.match(w), municipality.match(w)].reduce((a, b) => (a === null ? b : b === null ? a : Math.min(a, b))));
    townWrong ||= ds.includes(null);
    townFuzzy = !townWrong && sum(ds) > 0;
    cost += sum(ds);
  }
  // A wrong town is only corrected when the postal code vouches for the address.
  if (townWrong && postalOk !== true) return null;
  if (input.municipality && (townWrong || townFuzzy)) fix('municipality', input.municipality.typed, p.municipality);
  else if (!input.municipality && (fuzzyTown.length || unmatched.length)) fix('municipality', [...fuzzyTown, ...unmatched].join(' '), p.municipality);
  if (postalOk === false) fix('postal_code', input.postal!.typed, p.postal_code);
  if (streetFuzzy && out.some((c) => c.field === 'municipality' || c.field === 'postal_code')) return null;

  const townTyped = !!input.municipality || input.loose.length > 0 && municipality.met.some(Boolean);
  if (townTyped) cost += municipality.unmet;
  // A town typed short of its name (`Suchdol` for Suchdol nad Lužnicí) is not the address as typed: the name is the correction.
  // Not the post office's town typed whole in the town field.
  const officeNamed = officeWhole && !!input.municipality && input.municipality.words.every((w) => office.best(w).d === 0);
  if (townTyped && municipality.unmet > 0 && !officeNamed && !out.some((c) => c.field === 'municipality') && !cityWhole(p.municipality, input.municipality ? input.municipality.words : input.loose)) {
    fix('municipality', input.municipality ? input.municipality.typed : input.loose.filter((w) => municipality.has(w)).map((w) => w.typed).join(' ') || null, p.municipality);
  }
  // Neither town nor postal code: the address is not complete without them.
  else if (!input.postal && !town.met.some(Boolean)) {
    fix('municipality', null, p.municipality);
    fix('postal_code', null, p.postal_code);
  }
  // A wrong postal code and a town that is not the typed one (misspelt, or typed short of its
  // name) are two errors: `Husova 12, 602 00 Brno` is not Husova 12 in 684 01 Slavkov u Brna.
  if (postalOk === false && out.some((c) => c.field === 'municipality')) return null;
  return { place: p, corrections: out, cost };
}
