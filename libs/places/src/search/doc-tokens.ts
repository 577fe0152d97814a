import { CountryCode } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { wholeWords } from './query-parser';
import { umlautContraction, umlautTransliteration, WordSpan, wordSpans } from './text-fold';

/** A document word with every form a query may meet it under. */
export interface WordForms extends WordSpan {
  /** The word folded as written (`nam` for `nám.`, `strasse` for `Straße`). */
  raw: string;
  /** `mueller` for `Müller`, or null. */
  umlauts: string | null;
  /** Every form, the whole word first (`namesti`, `nam`); `folded` is forms[0]. */
  forms: string[];
}

/** Countries whose documents are German text, where `Mueller` is also written `Müller`. */
const GERMAN: ReadonlySet<CountryCode> = new Set<CountryCode>(['AT', 'CH', 'LI']);

export function isGermanText(country: CountryCode): boolean {
  return GERMAN.has(country);
}

// Candidates of one search share streets and municipalities: their words are computed once.
const WORDS_CACHE_MAX = 20_000;
const wordsCache = new Map<string, WordForms[]>();

/**
 * A text's words with their forms: abbreviations given as their whole word (`nám.` ->
 * `namesti`, `Hauptstr.` -> `hauptstrasse`), umlauts also transliterated (`Müller` ->
 * `mueller`), and in German text `ae`/`oe`/`ue` also as the plain vowel (`Mueller` ->
 * `muller`). Treat the result as read-only.
 */
export function canonicalWords(text: string, german = false): WordForms[] {
  const key = german ? `\u0000${text}` : text;
  let words = wordsCache.get(key);
  if (words) return words;
  words = wordSpans(text).map((w) => {
    const dotted = text[w.end] === '.';
    const forms = [...wholeWords(w.folded, dotted), w.folded];
    const umlauts = umlautTransliteration(w.lower);
    if (umlauts) forms.push(...wholeWords(umlauts, dotted), umlauts);
    const contracted = german ? umlautContraction(w.folded) : null;
    if (contracted) forms.push(...wholeWords(contracted, dotted), contracted);
    const unique = [...new Set(forms)];
    // A literal, not `{ ...w, ... }`: V8 spent microseconds per spread-then-add object (see place.mapper.ts).
    return { lower: w.lower, folded: unique[0], start: w.start, end: w.end, raw: w.folded, umlauts, forms: unique };
  });
  if (german) {
    joinStreetWords(words);
    for (const w of words) {
      const other = SANKT[w.folded];
      if (other) w.forms.push(other);
    }
  }
  if (wordsCache.size >= WORDS_CACHE_MAX) wordsCache.clear();
  wordsCache.set(key, words);
  return words;
}

/**
 * German `St.` is Sankt (`St. Pölten`, `St. Gallen`; GeoNames names the first's county `Sankt
 * Pölten Stadt`): a document's word has the other as a form too, so a query meets it either way.
 * Only here, not in the query's tokens: a query's `St.` stays `st`, which every index built before
 * this form existed still holds.
 */
const SANKT: Readonly<Record<string, string>> = { st: 'sankt', sankt: 'st' };

/** German street words that a name may be written joined to (`Wiener Straße`, also written `Wienerstrasse`). */
const GERMAN_STREET_WORDS: ReadonlySet<string> = new Set(['strasse', 'gasse', 'weg', 'platz', 'allee', 'ring', 'steig', 'zeile', 'kai', 'damm', 'ufer']);

/**
 * German text: the word before a street word also stands for the two written as one
 * (`Feldkircher Strasse` is also typed `Feldkircherstrasse`, `Feldkircherstr.`): each of its
 * forms joined to the street word's whole form is one more form of it, indexed and ranked as it.
 */
function joinStreetWords(words: WordForms[]): void {
  for (let i = 0; i + 1 < words.length; i++) {
    const next = words[i + 1]!.forms[0]!;
    // Not after a short word (`Am Platz`, `Im Ring`: no one writes `Amplatz`), nor after a street word.
    if (!GERMAN_STREET_WORDS.has(next) || words[i]!.folded.length < 4 || GERMAN_STREET_WORDS.has(words[i]!.folded)) continue;
    const forms = words[i]!.forms;
    for (const f of [...forms]) if (!/\d/.test(f)) forms.push(`${f}${next}`);
  }
}

/** The texts of a document that a search matches, per object kind. */
export function searchableTexts(d: PlaceDoc): string[] {
  switch (d.object) {
    case 'address':
      return [d.street, d.municipality, d.district, d.city_district].filter((t): t is string => !!t);
    case 'street':
      return [d.name, d.municipality].filter((t): t is string => !!t);
    case 'municipality':
      return [d.name];
    case 'postal_code':
      return [d.municipality].filter((t): t is string => !!t);
    default:
      return [d.name];
  }
}

export function postalOf(d: PlaceDoc): string | null {
  const p = d.postal_code ?? (d.object === 'postal_code' ? d.name : null);
  return p ? p.replace(/[\s-]+/g, '') : null;
}

/**
 * Pure: the folded tokens a document is indexed under, identical for both engines (SQLite's
 * FTS5 and OpenSearch's `tokens` field index this list as given). House numbers and the postal
 * code are tokens too, so one AND query covers `Lihovarska 79/22a 746 01 Opava`.
 */
export function docTokens(d: PlaceDoc): string[] {
  const out = new Set<string>();
  const german = isGermanText(d.country);
  for (const t of searchableTexts(d)) for (const w of canonicalWords(t, german)) for (const f of w.forms) out.add(f);
  if (d.object === 'address') {
    for (const n of [d.street_number, d.building_number]) if (n) for (const w of wordSpans(n)) out.add(w.folded);
  }
  const postal = postalOf(d);
  if (postal && d.object !== 'street') out.add(postal.toLowerCase());
  return [...out];
}

/** What the ranker compares query tokens with. */
export interface DocView {
  words: Array<{ folded: string; lower: string; forms: string[] }>;
  streetNumber: string | null;
  buildingNumber: string | null;
  /**
   * The parts of a whole house number written after the street, where the model keeps no
   * conscription number (PL/AT/CH/LI, `12/3/5` = house, staircase, door; `1-3`; the Swiss
   * sub-number `31.1`): a query `12` or `12/3` meets them part by part. Null for CZ/SK numbers.
   */
  numberParts: string[] | null;
  numberKind: PlaceDoc['number_kind'];
  postal: string | null;
  /** How many of `words` come from the address's street (they come first). */
  streetWords: number;
  /** Where the words of the part of the municipality (and city district) begin, after street and municipality. */
  partFrom: number;
}

export function docView(d: PlaceDoc): DocView {
  const words: DocView['words'] = [];
  const german = isGermanText(d.country);
  // A word once: `Frymburk 17, Frymburk` (the part named as its municipality) is all covered by `Frymburk 17`.
  const seen = new Set<string>();
  const texts = searchableTexts(d);
  // Addresses list street and municipality before the part and the city district.
  const partText = d.object === 'address' ? (d.street ? 2 : 1) : texts.length;
  let partFrom = 0;
  let streetWords = 0;
  for (const [n, t] of texts.entries()) {
    if (n === partText) partFrom = words.length;
    if (n === 1 && d.object === 'address' && d.street) streetWords = words.length;
    for (const w of canonicalWords(t, german)) {
      if (seen.has(w.folded)) continue;
      seen.add(w.folded);
      words.push({ folded: w.folded, lower: w.lower, forms: w.forms });
    }
  }
  if (partText >= texts.length) partFrom = words.length;
  const isAddress = d.object === 'address';
  const bn = isAddress && d.building_number ? d.building_number.toLowerCase() : null;
  const wholeNumber = bn !== null && !d.street_number && d.country !== 'CZ' && d.country !== 'SK';
  return {
    words,
    streetNumber: isAddress && d.street_number ? d.street_number.toLowerCase() : null,
    buildingNumber: bn,
    numberParts: wholeNumber ? bn.split(/\s*[/.-]\s*/).filter((p) => p !== '') : null,
    numberKind: d.number_kind,
    postal: postalOf(d),
    streetWords,
    partFrom,
  };
}
