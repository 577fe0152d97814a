/**
 * Diacritics folding for business names, shared by both engines and the ranker: we fold in our
 * own code (not in the engines' analyzers) so SQLite and OpenSearch index the same tokens and
 * give the same answers. Per character, so folded text keeps the original's offsets and the
 * highlighter can map matches back.
 */
const SPECIAL: Record<string, string> = { ß: 's', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ø: 'o', Ø: 'o', æ: 'a', Æ: 'a', œ: 'o', Œ: 'o' };
const cache = new Map<string, string>();

export function foldChar(c: string): string {
  let f = cache.get(c);
  if (f !== undefined) return f;
  f = SPECIAL[c] ?? c.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (f.length !== 1) f = c.toLowerCase().length === 1 ? c.toLowerCase() : ' ';
  if (cache.size < 10000) cache.set(c, f);
  return f;
}

/** Lower case, no diacritics, same length (in UTF-16 units) as the input. */
export function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ASCII fast path: the bulk of register names.
    if (code < 128) out += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
    else out += foldChar(text[i]);
  }
  return out;
}
