import { fold, foldSameLength } from './text-fold';

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
  /** An abbreviation's stand-in (`sv` for `sv.`): the typo pass leaves it as it is. */
  fixed?: boolean;
}

export interface ParsedQuery {
  tokens: QueryToken[];
  /** True when the text ends in the middle of a word (the user is still typing it). */
  typing: boolean;
  /**
   * The other reading of digits being typed at the end, which the search tries when `tokens`
   * find nothing: `Alšova 208 37` is the postal code 208 37, or house number 208 and the start
   * of the code; `Jesenická 3 78` the start of a code, or 3 and a second number 78.
   */
  alternative?: QueryToken[];
}

/** A street-name abbreviation (folded, without its dot). */
export interface Abbreviation {
  /** The whole words it stands for: a document writing the abbreviation is indexed under them too. */
  words: string[];
  /**
   * What a query makes of it: by default the first whole word; `drop` adds nothing (`ul.`:
   * it only says "street"); a prefix where it stands for several words (`al.` is aleja and
   * aleje, `sv.` svatého, svaté, svätého ...).
   */
  query?: 'drop' | { prefix: string };
  /**
   * Only with its dot. Without one it is a word of its own (Italian `Via al Forte`) and meets
   * the documents that write the abbreviation as it is.
   */
  dotOnly?: boolean;
}

/** Czech, Slovak and Polish street abbreviations; German compounds (`Hauptstr.`) are in `wholeWords`, German `St.` in doc-tokens.ts. */
export const ABBREVIATIONS: Record<string, Abbreviation> = {
  nam: { words: ['namesti'] },
  namest: { words: ['namesti'] },
  nabr: { words: ['nabrezi'] },
  tr: { words: ['trida'] },
  ul: { words: [], query: 'drop' },
  sv: { words: [], query: { prefix: 'sv' } },
  sidl: { words: ['sidliste'] },
  // Polish: TERYT writes the street type before the name (`al. Jana Pawła II`, `pl. Grunwaldzki`).
  al: { words: ['aleja', 'aleje'], query: { prefix: 'alej' }, dotOnly: true },
  // `pla`: plac (PL), Platz (DE), place (FR) alike.
  pl: { words: ['plac'], query: { prefix: 'pla' }, dotOnly: true },
  os: { words: ['osiedle'], dotOnly: true },
  sw: { words: [], query: { prefix: 'sw' } },
};

export const MAX_TOKENS = 12;

/**
 * The whole words a written word also stands for, on the document and the query side alike,
 * so that both meet at one indexed term: a dotted abbreviation of the table (`nám.` ->
 * namesti; the register itself writes `Fügnerovo nám.`), and the German street words:
 * `str`/`str.`/`straße`/`strasse` are one word, also as the end of a compound (`Hauptstr.`,
 * `Bahnhofstr` -> `...strasse`), and a dotted compound `...g.` is `...gasse`, `...pl.` is
 * `...platz` (three letters before them at least: `Ing.` stays a title).
 */
export function wholeWords(folded: string, followedByDot: boolean): string[] {
  const abbr = ABBREVIATIONS[folded];
  if (abbr) return followedByDot ? abbr.words : [];
  if (folded.endsWith('str')) return [`${folded}asse`];
  if (followedByDot && /^[a-z]{3,}g$/.test(folded)) return [`${folded}asse`];
  if (followedByDot && /^[a-z]{3,}pl$/.test(folded)) return [`${folded.slice(0, -2)}platz`];
  return [];
}

// Alternatives on the folded text, in priority order (named groups): a Polish postal code
// `00-950`, or `00-9` being typed at the end; a postal code written `746 01`; `c. ev. 59` (or
// `ev. 59`); `c. p. 12` / `c. o. 3`; `79/22a` (or `79/` being typed); a word and its dot.
const NOT_AFTER = '(?<![\\p{L}\\p{N}])';
const NOT_BEFORE = '(?![\\p{L}\\p{N}])';
const SCAN = new RegExp(
  [
    `${NOT_AFTER}(?<plA>\\d{2})-(?<plB>\\d{3})${NOT_BEFORE}`,
    `${NOT_AFTER}(?<plPartA>\\d{2})-(?<plPartB>\\d{1,2})$`,
    `${NOT_AFTER}(?<postA>\\d{3})\\s(?<postB>\\d{2})${NOT_BEFORE}`,
    `${NOT_AFTER}(?<postPartA>\\d{3})\\s(?<postPartB>\\d)$`,
    `${NOT_AFTER}(?:c\\.?\\s?)?ev\\.?\\s*(?<ce>\\d+[a-z]?)${NOT_BEFORE}`,
    `${NOT_AFTER}(?<ceMark>c\\.\\s?(?:ev?|[po])?|(?:c\\.?\\s?)?ev)\\.?$`,
    `${NOT_AFTER}c\\.?\\s?(?<cpKind>[po])\\.?\\s*(?<cp>\\d+[a-z]?)${NOT_BEFORE}`,
    `${NOT_AFTER}(?<first>\\d+[a-z]?)\\s*\\/\\s*(?<second>\\d+[a-z]?)?${NOT_BEFORE}`,
    `(?<word>[\\p{L}\\p{N}]+)(?<dot>\\.)?`,
  ].join('|'),
  'gu',
);

const HOUSE_NUMBER = /^\d+[a-z]?$/;

/**
 * Pure: a typed query to tokens. Handles diacritics folding (`ß` as `ss`), postal codes with
 * or without the space or dash, house numbers in every written form (`79`, `22a`, `79/22a`,
 * `12/3/5`, `c. ev. 59`, `c. p. 12`) and the common abbreviations. The last token is a prefix
 * unless the text ends in a separator.
 */
export function parseQuery(text: string): ParsedQuery {
  const normal = text.normalize('NFC');
  const raw = normal.replace(/\s+/g, ' ').trim();
  // Scanned with offsets into `raw`; each word is folded on its own (`ß` folds to two letters).
  const scan = foldSameLength(raw);
  // A trailing space or comma means the last word is complete.
  const typing = /[\p{L}\p{N}]$/u.test(normal);
  const tokens: QueryToken[] = [];
  /** The other reading of the last digits (ParsedQuery.alternative): what replaces the tokens from `at`. */
  let other: { at: number; tokens: QueryToken[] } | null = null;
  let prevEnd = 0;
  for (const m of scan.matchAll(SCAN)) {
    const g = m.groups ?? {};
    const at = m.index ?? 0;
    const between = raw.slice(prevEnd, at);
    // After the house number and a comma, digits are the postal code (`Alšova 513, 277 13`), also while only its start is typed.
    const afterNumber = tokens[tokens.length - 1]?.kind === 'number';
    const postalNext = afterNumber && between.includes(',');
    // After a name and a comma (`Sobětuchy, 537 0`: a place without a house number), a code's first three digits and more.
    const codeAfterName = !afterNumber && tokens.length > 0 && between.includes(',');
    prevEnd = at + m[0].length;
    // Digits typed at the end of the text (no comma, space or letter after them).
    const typedLast = typing && prevEnd >= scan.length;
    if (g.plA) tokens.push(postalToken(g.plA + g.plB));
    else if (g.postA && typedLast && !afterNumber && tokens[tokens.length - 1]?.kind === 'word') {
      // `Alšova 208 37`: a whole code after a name, or its house number and a code's start.
      other = { at: tokens.length, tokens: [numberToken(g.postA), { ...postalToken(g.postB!), prefix: true }] };
      tokens.push(postalToken(g.postA + g.postB));
    } else if (g.word && afterNumber && typedLast && /^\d{1,2}$/.test(g.word) && /^\s+$/.test(between)) {
      // `Jesenická 3 78`: the start of the code typed without the comma, or a second number (only after a space: a range is
      // written `1-3`, an AT staircase and door `12/3/5`, a Swiss sub-number `31.1`).
      other = { at: tokens.length, tokens: [numberToken(g.word)] };
      tokens.push({ ...postalToken(g.word), prefix: true });
    } else if (g.plPartA) tokens.push({ ...postalToken(g.plPartA + g.plPartB), prefix: true });
    else if (g.postA) tokens.push(postalToken(g.postA + g.postB));
    // Without the comma too: `Alšova 513 277 1`.
    else if (g.postPartA && (afterNumber || codeAfterName)) tokens.push({ ...postalToken(g.postPartA + g.postPartB), prefix: true });
    else if (g.postPartA && typedLast && tokens[tokens.length - 1]?.kind === 'word') {
      // `Alšova 208 3`: the house number and a code's first digit, or two numbers.
      other = { at: tokens.length, tokens: [numberToken(g.postPartA), numberToken(g.postPartB!)] };
      tokens.push(numberToken(g.postPartA), { ...postalToken(g.postPartB!), prefix: true });
    } else if (g.postPartA) tokens.push(numberToken(g.postPartA), numberToken(g.postPartB!));
    // `č. ev.` or `č. p.` typed without its number yet (`č.`, `č. e`, `ev`) says nothing to search by; alone it is a word (`Ev` of Evropská).
    else if (g.ceMark) {
      if (tokens.length === 0) for (const w of g.ceMark.match(/[a-z]+/g) ?? []) tokens.push(wordToken(w, w, false, typing)!);
    } else if (g.word && ((postalNext && /^\d{1,4}$/.test(g.word)) || ((afterNumber || codeAfterName) && /^\d{3}$/.test(g.word) && at + m[0].length >= scan.length))) {
      // Also three digits ending the text right after the house number, without the comma (`Alšova 513 277 `): a CZ/SK/PL code's first part.
      // Three digits are the start of a CZ/SK/PL code (`277 13`: its space typed, the rest not yet); four are an AT/CH/LI code.
      tokens.push({ ...postalToken(g.word), prefix: g.word.length < 4 });
    }
    else if (g.ce) tokens.push(numberToken(g.ce, 'ce'));
    else if (g.cp) tokens.push(numberToken(g.cp, g.cpKind === 'p' ? 'cp' : 'co'));
    else if (g.first) {
      tokens.push(numberToken(g.first, 'cp'));
      if (g.second) tokens.push(numberToken(g.second, 'co'));
    } else if (g.word) {
      const written = raw.slice(at, at + g.word.length);
      const token = wordToken(fold(written), written.toLowerCase(), g.dot === '.', typing && at + m[0].length >= scan.length);
      if (token) tokens.push(token);
    }
  }
  const done = (list: QueryToken[]) => {
    const last = list[list.length - 1];
    // Only the word being typed is a prefix; `79/` being typed leaves the orientation number open.
    if (last && typing && (last.kind !== 'postal' || last.folded.length < 5)) last.prefix = true;
    return dedupe(list).slice(0, MAX_TOKENS);
  };
  const alternative = other ? done([...tokens.slice(0, other.at), ...other.tokens]) : undefined;
  return { tokens: done(tokens), typing, ...(alternative ? { alternative } : {}) };
}

/** One written word to its token; null for a word that adds nothing (`ul.`). */
function wordToken(word: string, lower: string, dotted: boolean, beingTyped: boolean): QueryToken | null {
  const abbr = ABBREVIATIONS[word];
  if (abbr && (dotted || (!beingTyped && !abbr.dotOnly))) {
    if (abbr.query === 'drop') return null;
    if (abbr.query) return { kind: 'word', folded: abbr.query.prefix, lower: abbr.query.prefix, prefix: true, fixed: true };
    return { kind: 'word', folded: abbr.words[0], lower: abbr.words[0], prefix: false };
  }
  if (/^\d{5}$/.test(word)) return postalToken(word);
  if (HOUSE_NUMBER.test(word)) return numberToken(word);
  // The word being typed stays as typed: `Hauptstr` is already a prefix of `hauptstrasse`.
  const whole = beingTyped ? undefined : wholeWords(word, dotted)[0];
  return { kind: 'word', folded: whole ?? word, lower, prefix: false };
}

function postalToken(digits: string): QueryToken {
  return { kind: 'postal', folded: digits, lower: digits, prefix: false };
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

/** Digits of a partial or whole postal code (`746`, `74601`, `746 01`, `00-950`, `8001`), or null if it is not one. */
export function postalDigits(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{1,6}$/.test(digits) ? digits : null;
}

/**
 * A Slovak postal code that lost its leading zero (sent as a JSON number: `2305` for 023 05)
 * gets it back in a search of Slovakia alone: no Slovak code starts with 1-7 (those are Czech),
 * so such digits would find nothing there.
 */
export function slovakZero(digits: string, countries: readonly string[] | null | undefined): string {
  return countries?.length === 1 && countries[0] === 'SK' && digits.length < 5 && /^[1-7]/.test(digits) ? `0${digits}` : digits;
}
