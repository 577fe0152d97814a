/**
 * Diacritics folding shared by both engines and the ranker. We fold in our own code (not in
 * the engines' analyzers) so SQLite and OpenSearch index exactly the same tokens and give the
 * same answers. Folding is per character; every character folds to one letter except the
 * German `ß` (`ss`, so `Straße` and `Strasse` are one word) and the ligatures `æ`/`œ`:
 * `foldedPrefixLength` maps a folded length back onto the original for the highlighter.
 */
const SPECIAL: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe',
};
const cache = new Map<string, string>();

export function foldChar(c: string): string {
  let f = cache.get(c);
  if (f !== undefined) return f;
  f = SPECIAL[c];
  if (f === undefined) {
    f = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    if (f.length !== 1) f = c.toLowerCase().slice(0, 1) || c;
  }
  cache.set(c, f);
  return f;
}

export function fold(text: string): string {
  let out = '';
  for (const c of text) out += foldChar(c);
  return out;
}

/**
 * `text` folded character by character but keeping its length (a character that folds to two
 * letters stays as written, lower-cased): offsets found in it are offsets into `text`.
 */
export function foldSameLength(text: string): string {
  let out = '';
  for (const c of text) {
    const f = foldChar(c);
    if (f.length === c.length) out += f;
    else {
      const lower = c.toLowerCase();
      out += lower.length === c.length ? lower : c;
    }
  }
  return out;
}

/** German transliteration of the umlauts (`Müller` -> `mueller`), the other way Germans write them. */
const UMLAUT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue' };

/** How many characters of `word` its first `foldedLength` folded letters come from (highlight of a prefix). */
export function foldedPrefixLength(word: string, foldedLength: number, umlautsAsTwo = false): number {
  let n = 0;
  let at = 0;
  for (const c of word) {
    if (n >= foldedLength) break;
    n += umlautsAsTwo && UMLAUT[c.toLowerCase()] ? 2 : foldChar(c).length;
    at += c.length;
  }
  return at;
}

/** `müller` -> `mueller`, or null when the word has no umlaut. Input lower case. */
export function umlautTransliteration(lower: string): string | null {
  if (!/[äöü]/.test(lower)) return null;
  return fold(lower.replace(/[äöü]/g, (c) => UMLAUT[c]));
}

/**
 * `mueller` -> `muller`: a German word written with `ae`/`oe`/`ue` for the umlaut is also
 * found as typed without it. Only after a consonant or at the start (`Bauer` and `Steuer` keep
 * their vowels), and only for German-speaking countries' documents, where the spelling exists.
 */
export function umlautContraction(folded: string): string | null {
  const out = folded.replace(/(^|[^aeiou])([aou])e/g, '$1$2');
  return out !== folded ? out : null;
}

export interface WordSpan {
  /** The word as written, lower-cased (diacritics kept). */
  lower: string;
  /** The word folded (no diacritics, lower case). */
  folded: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Letter/digit runs with their offsets: the tokens of both engines and of the highlighter. */
export function wordSpans(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    out.push({ lower: w.toLowerCase(), folded: fold(w), start: m.index ?? 0, end: (m.index ?? 0) + w.length });
  }
  return out;
}

export function foldedWords(text: string | null | undefined): string[] {
  return text ? wordSpans(text).map((w) => w.folded) : [];
}
