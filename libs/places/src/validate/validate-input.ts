import { PlaceValidateRequest } from '@lookup/contracts';
import { parseQuery, QueryToken, slovakZero } from '../search/query-parser';

/** A typed word: `folded` is what is compared (the search's own folding and abbreviations), `typed` what is reported. */
export interface TypedWord {
  folded: string;
  typed: string;
  /** An abbreviation standing for several words (`sv.`): any word starting with it. */
  prefix: boolean;
}

export interface TypedPart {
  typed: string;
  words: TypedWord[];
}

/** House numbers as typed, lower case: conscription (or evidence), orientation, or one number that may be either. */
export interface TypedNumbers {
  cp: string | null;
  /** The cp is an evidence number (`č. ev. 59`). */
  evidence: boolean;
  co: string | null;
  lone: string | null;
  /**
   * The other lone numbers of the text (`17` of `17. listopadu 1731`, `1` of `Vodičkova 30,
   * Praha 1`): a candidate must account for each, in its street's or town's name or as its other
   * house number, or a number typed would be ignored (`Bahnhofstrasse 31.1` is not number 1).
   */
  others: string[];
}

/**
 * The address as the user typed it, read once: explicit parts where given, the rest of `query`
 * as loose words whose field is decided per candidate (any word order is fine).
 */
export interface AddressInput {
  street: TypedPart | null;
  municipality: TypedPart | null;
  /** Words of `query`: street or town, decided per candidate. */
  loose: TypedWord[];
  numbers: TypedNumbers;
  postal: { typed: string; digits: string } | null;
}

// A trailing space: every word is complete (the search would take the last one as a prefix).
function tokens(text: string): QueryToken[] {
  return parseQuery(`${text} `).tokens;
}

/** `lower` as it is written in `text` (its case kept: `Šumprek`, not `šumprek`), else `lower`. */
function asWritten(text: string | undefined, lower: string): string {
  if (!text) return lower;
  const at = text.toLowerCase().indexOf(lower);
  const written = at >= 0 ? text.slice(at, at + lower.length) : '';
  return written.toLowerCase() === lower ? written : lower;
}

/** A postal code's digits as written in `text` (`010 01`, `00-951`), else the digits. */
function postalAsWritten(text: string | undefined, digits: string): string {
  const m = text?.match(new RegExp(`(?<!\\d)${digits.split('').join('[\\s-]?')}(?!\\d)`));
  return m ? m[0] : digits;
}

function wordsOf(ts: QueryToken[], text?: string): TypedWord[] {
  return ts.filter((t) => t.kind === 'word').map((t) => ({ folded: t.folded, typed: asWritten(text, t.lower), prefix: t.prefix }));
}

/** The words of a stored value as the input's are read, so `nám.` meets `náměstí`. */
export function fieldWords(text: string | null | undefined): string[] {
  return text ? wordsOf(tokens(text)).map((w) => w.folded) : [];
}

function part(text: string | undefined): TypedPart | null {
  if (!text?.trim()) return null;
  const words = wordsOf(tokens(text), text);
  return words.length ? { typed: text.trim(), words } : null;
}

const NO_NUMBERS: TypedNumbers = { cp: null, evidence: false, co: null, lone: null, others: [] };

/**
 * Numbers of a text: `79/22a`, `c. p. 79`, `ev. 59`, or a lone `79`. Of several lone numbers the
 * last is the house number (a number before it may be part of the street's name, `17. listopadu
 * 1731`), unless `loneAt` picks another (readInputs' other readings).
 */
function numbersIn(ts: QueryToken[], loneAt?: number): TypedNumbers {
  const n: TypedNumbers = { ...NO_NUMBERS, others: [] };
  const lones: string[] = [];
  for (const t of ts.filter((x) => x.kind === 'number')) {
    if ((t.role === 'cp' || t.role === 'ce') && !n.cp) [n.cp, n.evidence] = [t.folded, t.role === 'ce'];
    else if (t.role === 'co' && !n.co) n.co = t.folded;
    else if (!t.role) lones.push(t.folded);
  }
  // `79/` alone is a conscription number; a lone number beside a slash pair adds nothing.
  if (lones.length && !n.cp && !n.co) {
    const at = loneAt ?? lones.length - 1;
    n.lone = lones[at]!;
    n.others = lones.filter((_, i) => i !== at);
  }
  return n;
}

/** How many lone numbers a text has where no slash pair or conscription number is typed: the readings of which is the house number. */
function loneCount(ts: QueryToken[]): number {
  const numbers = ts.filter((x) => x.kind === 'number');
  return numbers.some((t) => t.role) ? 0 : numbers.length;
}

/** The numbers written in a stored value (`17` of `17. listopadu`, `9` of `Praha 9`). */
export function fieldNumbers(text: string | null | undefined): string[] {
  return text ? tokens(text).filter((t) => t.kind === 'number').map((t) => t.folded) : [];
}

function hasAny(n: TypedNumbers): boolean {
  return !!(n.cp || n.co || n.lone);
}

/** Explicit number parameters: `street_number` is the conscription number (or `79/22a`), `building_number` the orientation one. */
function explicitNumbers(dto: PlaceValidateRequest): TypedNumbers {
  const n = { ...NO_NUMBERS };
  if (dto.street_number) {
    const read = numbersIn(tokens(dto.street_number));
    Object.assign(n, read.lone ? { cp: read.lone } : read);
  }
  // A range (`1-3`, as AT writes some house numbers) is one number here, compared whole.
  const range = dto.building_number?.trim().toLowerCase().match(/^(\d+[a-z]?)\s*-\s*(\d+[a-z]?)$/);
  if (range) n.co = `${range[1]}-${range[2]}`;
  else if (dto.building_number) n.co = numbersIn(tokens(dto.building_number)).lone ?? n.co;
  n.others = [];
  return n;
}

function postalOf(typed: string | undefined, countries: readonly string[] | undefined): AddressInput['postal'] {
  if (!typed?.trim()) return null;
  return { typed: typed.trim(), digits: slovakZero(typed.replace(/[\s-]/g, ''), countries) };
}

/** Countries whose postal codes have four digits (AT, CH, LI): there `1010` in `query` may be one. */
const FOUR_DIGIT_POSTAL = new Set(['AT', 'CH', 'LI']);

/**
 * Pure: a validated request to what the matcher compares. The first reading is the request as
 * the search reads it; the others read a lone four-digit number of `query` as the postal code
 * (`Stephansplatz 3, 1010 Wien`: AT, CH and LI codes have four digits, and the search parser
 * takes only five-digit ones for postal codes, so `1010` would otherwise be the house number).
 * They are tried in turn while the earlier ones find nothing: `17. listopadu 1731` stays a house
 * number where that address exists.
 */
export function readInputs(dto: PlaceValidateRequest): AddressInput[] {
  const queryTokens = dto.query ? tokens(dto.query) : [];
  const readings = [readInputFrom(dto, queryTokens)];
  const fourDigitCountries = !dto.country?.length || dto.country.some((c) => FOUR_DIGIT_POSTAL.has(c));
  const lone = queryTokens.filter((t) => t.kind === 'number' && !t.role);
  if (!dto.postal_code?.trim() && fourDigitCountries && !queryTokens.some((t) => t.kind === 'postal') && lone.length >= 2) {
    for (const t of lone) {
      if (!/^\d{4}$/.test(t.folded)) continue;
      const asPostal: QueryToken = { kind: 'postal', folded: t.folded, lower: t.lower, prefix: false };
      readings.push(readInputFrom(dto, queryTokens.map((x) => (x === t ? asPostal : x))));
    }
  }
  // Then each earlier lone number as the house number (`Vodičkova 30, Praha 1`: the 1 is the town's).
  const queryNumbersUsed = !hasAny(explicitNumbers(dto)) && !hasAny(numbersIn(dto.street ? tokens(dto.street) : []));
  const count = queryNumbersUsed ? loneCount(queryTokens) : 0;
  for (let at = count - 2; at >= 0; at--) readings.push(readInputFrom(dto, queryTokens, at));
  return readings;
}

/** The request as the search reads it (the first of readInputs). */
export function readInput(dto: PlaceValidateRequest): AddressInput {
  return readInputFrom(dto, dto.query ? tokens(dto.query) : []);
}

function readInputFrom(dto: PlaceValidateRequest, queryTokens: QueryToken[], loneAt?: number): AddressInput {
  const streetTokens = dto.street ? tokens(dto.street) : [];
  const street = part(dto.street);
  const municipality = part(dto.municipality);
  // Parts win: the query's numbers and postal code count only where no part says otherwise.
  const explicit = explicitNumbers(dto);
  const numbers = hasAny(explicit) ? explicit : hasAny(numbersIn(streetTokens)) ? numbersIn(streetTokens) : numbersIn(queryTokens, loneAt);
  const queryPostal = queryTokens.find((t) => t.kind === 'postal');
  const postal = postalOf(dto.postal_code, dto.country) ?? (queryPostal ? { typed: postalAsWritten(dto.query, queryPostal.folded), digits: queryPostal.folded } : null);
  // Kept even where a part repeats them: in a village without streets the town's name is also the street's.
  const loose = wordsOf(queryTokens, dto.query);
  return { street, municipality, loose, numbers, postal };
}

export function hasNumber(input: AddressInput): boolean {
  return hasAny(input.numbers);
}

/** The numbers written back as the search reads them. */
export function numbersText(n: TypedNumbers): string {
  const cp = n.cp ? (n.evidence ? `ev. ${n.cp}` : n.cp) : '';
  if (cp && n.co) return n.evidence ? `${cp} ${n.co}` : `${cp}/${n.co}`;
  return cp || n.co || n.lone || '';
}
