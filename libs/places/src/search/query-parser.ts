import { fold } from './text-fold';

export type TokenKind = 'word' | 'number' | 'postal';

/** One search term, as both engines and the ranker see it. */
export interface QueryToken {
  kind: TokenKind;
  /** Folded (lower case, no diacritics): the engine term. */
  folded: string;
  /** As typed, lower case with diacritics: an exact-diacritics match ranks higher. */
  lower: string;
  /** Matched as a prefix: the word being typed, or an abbreviation like `sv.`. */
  prefix: boolean;
  /** House numbers: `cp` before a slash, `co` after it, `ce` after `c. ev.`. */
  role?: 'cp' | 'co' | 'ce';
}

export interface ParsedQuery {
  tokens: QueryToken[];
  /** True when the text ends in the middle of a word (the user is still typing it). */
  typing: boolean;
}

/**
 * Czech/Slovak street abbreviations (folded). A string expands to that whole word; `null`
 * drops the token (`ul.` adds nothing: street names are stored without it); `prefix` keeps
 * the token as a prefix (`sv.` is svatého, svaté, svatý, svätého ...).
 */
export const ABBREVIATIONS: Record<string, string | null | 'prefix'> = {
  nam: 'namesti',
  namest: 'namesti',
  nabr: 'nabrezi',
  tr: 'trida',
  ul: null,
  sv: 'prefix',
  sidl: 'sidliste',
};

export const MAX_TOKENS = 12;

/**
 * The register itself writes some names abbreviated (`Fügnerovo nám.`, `nám. Arnošta z
 * Pardubic`): a word of the table followed by a dot stands for its whole word on the
 * document side too, so `nám.`, `nam` (typed) and `náměstí` all meet at `namesti`.
 */
export function expandAbbreviation(folded: string, followedByDot: boolean): string | null {
  const abbr = ABBREVIATIONS[folded];
  return followedByDot && typeof abbr === 'string' && abbr !== 'prefix' ? abbr : null;
}

// Alternatives on the folded text, in priority order:
// 1 postal code written `746 01`; 2 `c. ev. 59` (or `ev. 59`); 3 `c. p. 12` / `c. o. 3`; 4-5 `79/22a` (or `79/` being typed); 6 a word, 7 its abbreviation dot.
const SCAN =
  /(?<![\p{L}\p{N}])(\d{3})\s(\d{2})(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?:c\.?\s?)?ev\.?\s*(\d+[a-z]?)(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])c\.?\s?([po])\.?\s*(\d+[a-z]?)(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(\d+[a-z]?)\s*\/\s*(\d+[a-z]?)?(?![\p{L}\p{N}])|([\p{L}\p{N}]+)(\.)?/gu;

const HOUSE_NUMBER = /^\d+[a-z]?$/;

/**
 * Pure: a typed query to tokens. Handles diacritics folding, postal codes with or without the
 * space, house numbers in every written form (`79`, `22a`, `79/22a`, `c. ev. 59`, `c. p. 12`)
 * and the common abbreviations. The last token is a prefix unless the text ends in a separator.
 */
export function parseQuery(text: string): ParsedQuery {
  const normal = text.normalize('NFC');
  const raw = normal.replace(/\s+/g, ' ').trim();
  const folded = fold(raw);
  // A trailing space or comma means the last word is complete.
  const typing = /[\p{L}\p{N}]$/u.test(normal);
  const tokens: QueryToken[] = [];
  const lowerAt = (start: number, len: number) => raw.slice(start, start + len).toLowerCase();
  for (const m of folded.matchAll(SCAN)) {
    const at = m.index ?? 0;
    if (m[1]) tokens.push({ kind: 'postal', folded: m[1] + m[2], lower: m[1] + m[2], prefix: false });
    else if (m[3]) tokens.push(numberToken(m[3], 'ce'));
    else if (m[5]) tokens.push(numberToken(m[5], m[4] === 'p' ? 'cp' : 'co'));
    else if (m[6]) {
      tokens.push(numberToken(m[6], 'cp'));
      if (m[7]) tokens.push(numberToken(m[7], 'co'));
    } else if (m[8]) {
      const word = m[8];
      const abbr = ABBREVIATIONS[word];
      const dotted = m[9] === '.';
      if (abbr !== undefined && (dotted || at + m[0].length < folded.length)) {
        if (abbr === null) continue;
        if (abbr === 'prefix') tokens.push({ kind: 'word', folded: word, lower: word, prefix: true });
        else tokens.push({ kind: 'word', folded: abbr, lower: abbr, prefix: false });
        continue;
      }
      if (/^\d{5}$/.test(word)) tokens.push({ kind: 'postal', folded: word, lower: word, prefix: false });
      else if (HOUSE_NUMBER.test(word)) tokens.push(numberToken(word));
      else tokens.push({ kind: 'word', folded: word, lower: lowerAt(at, word.length), prefix: false });
    }
  }
  const last = tokens[tokens.length - 1];
  // Only the word being typed is a prefix; `79/` being typed leaves the orientation number open.
  if (last && typing && (last.kind !== 'postal' || last.folded.length < 5)) last.prefix = true;
  return { tokens: dedupe(tokens).slice(0, MAX_TOKENS), typing };
}

function numberToken(value: string, role?: QueryToken['role']): QueryToken {
  return { kind: 'number', folded: value, lower: value, prefix: false, ...(role ? { role } : {}) };
}

function dedupe(tokens: QueryToken[]): QueryToken[] {
  const seen = new Set<string>();
  return tokens.filter((t) => {
    const key = `${t.kind}:${t.folded}:${t.prefix}:${t.role ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Digits of a partial or whole postal code (`746`, `74601`, `746 01`), or null if it is not one. */
export function postalDigits(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{1,6}$/.test(digits) ? digits : null;
}
