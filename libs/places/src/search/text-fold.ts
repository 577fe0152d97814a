/**
 * Diacritics folding shared by both engines and the ranker. We fold in our own code (not in
 * the engines' analyzers) so SQLite and OpenSearch index exactly the same tokens and give the
 * same answers. Folding is per character, so a folded word has the same length as the
 * original and highlight offsets map back one to one.
 */
const SPECIAL: Record<string, string> = { ß: 's', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ø: 'o', Ø: 'o', æ: 'a', Æ: 'a', œ: 'o', Œ: 'o' };
const cache = new Map<string, string>();

export function foldChar(c: string): string {
  let f = cache.get(c);
  if (f !== undefined) return f;
  f = SPECIAL[c] ?? c.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (f.length !== 1) f = c.toLowerCase().slice(0, 1) || c;
  cache.set(c, f);
  return f;
}

export function fold(text: string): string {
  let out = '';
  for (const c of text) out += foldChar(c);
  return out;
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
