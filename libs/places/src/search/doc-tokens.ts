import { PlaceDoc } from '../domain/place.doc';
import { expandAbbreviation } from './query-parser';
import { WordSpan, wordSpans } from './text-fold';

// Candidates of one search share streets and municipalities: their words are computed once.
const WORDS_CACHE_MAX = 20_000;
const wordsCache = new Map<string, WordSpan[]>();

/** A text's words, abbreviations (`nám.`) given as their whole word (`namesti`). Treat the result as read-only. */
export function canonicalWords(text: string): WordSpan[] {
  let words = wordsCache.get(text);
  if (words) return words;
  words = wordSpans(text).map((w) => {
    const whole = expandAbbreviation(w.folded, text[w.end] === '.');
    return whole ? { ...w, folded: whole } : w;
  });
  if (wordsCache.size >= WORDS_CACHE_MAX) wordsCache.clear();
  wordsCache.set(text, words);
  return words;
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
  return p ? p.replace(/\s+/g, '') : null;
}

/**
 * Pure: the folded tokens a document is indexed under, identical for both engines (SQLite's
 * FTS5 and OpenSearch's `tokens` field index this list as given). House numbers and the postal
 * code are tokens too, so one AND query covers `Lihovarska 79/22a 746 01 Opava`.
 */
export function docTokens(d: PlaceDoc): string[] {
  const out = new Set<string>();
  for (const t of searchableTexts(d)) {
    for (const w of wordSpans(t)) {
      out.add(w.folded);
      const whole = expandAbbreviation(w.folded, t[w.end] === '.');
      if (whole) out.add(whole);
    }
  }
  if (d.object === 'address') {
    for (const n of [d.street_number, d.building_number]) if (n) for (const w of wordSpans(n)) out.add(w.folded);
  }
  const postal = postalOf(d);
  if (postal && d.object !== 'street') out.add(postal.toLowerCase());
  return [...out];
}

/** What the ranker compares query tokens with. */
export interface DocView {
  words: Array<{ folded: string; lower: string }>;
  streetNumber: string | null;
  buildingNumber: string | null;
  numberKind: PlaceDoc['number_kind'];
  postal: string | null;
}

export function docView(d: PlaceDoc): DocView {
  const words: DocView['words'] = [];
  for (const t of searchableTexts(d)) for (const w of canonicalWords(t)) words.push({ folded: w.folded, lower: w.lower });
  const isAddress = d.object === 'address';
  return {
    words,
    streetNumber: isAddress && d.street_number ? d.street_number.toLowerCase() : null,
    buildingNumber: isAddress && d.building_number ? d.building_number.toLowerCase() : null,
    numberKind: d.number_kind,
    postal: postalOf(d),
  };
}
