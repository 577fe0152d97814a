import { nameKey, nameSpans } from '../domain/name-tokens';

/** A name query as typed: complete words plus the word being typed (a prefix). */
export interface NameQuery {
  /** Index tokens in the order typed. */
  tokens: string[];
  /** The last token is still being typed (the text does not end with a space). */
  lastIsPrefix: boolean;
  /** The query's tokens joined: a prefix of the name keys of names that start with it. */
  key: string;
  /** Words as written, lower case with diacritics: an exact-diacritics match ranks higher. */
  written: string[];
}

export function parseNameQuery(text: string): NameQuery | null {
  const typing = !/\s$/.test(text);
  const spans = nameSpans(text.slice(0, 400), typing);
  if (spans.length === 0) return null;
  const tokens = spans.map((s) => s.token).slice(0, 12);
  const written = spans.map((s) => text.slice(s.start, s.end).toLowerCase());
  return { tokens, lastIsPrefix: typing, key: tokens.join(' '), written };
}

/** What an engine is asked for by tokens: every word whole, every prefix as a prefix. */
export interface TokenMatch {
  words: string[];
  prefixes: string[];
}

/** Strict pass: the words already typed whole, the one being typed as a prefix. */
export function strictMatch(q: NameQuery): TokenMatch {
  if (!q.lastIsPrefix) return { words: dedupe(q.tokens), prefixes: [] };
  return { words: dedupe(q.tokens.slice(0, -1)), prefixes: [q.tokens[q.tokens.length - 1]] };
}

/** Lenient pass, only when the strict one finds too little: every token as a prefix. */
export function lenientMatch(q: NameQuery): TokenMatch | null {
  const strict = strictMatch(q);
  if (strict.words.length === 0) return null;
  return { words: [], prefixes: dedupe(q.tokens) };
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

export { nameKey };
