import { escapeHtml } from '../domain/html';
import { editDistance, fuzziness } from './fuzzy';
import { QueryToken } from './query-parser';
import { canonicalWords } from './doc-tokens';

/**
 * Pure: `text` with the parts the query matched wrapped in <em>, everything else HTML-escaped
 * (the widget inserts it as HTML). Whole words for exact and typo matches, the typed part for
 * a prefix; a postal code token marks the digits of `746 01` it covers.
 */
export function highlight(text: string, tokens: QueryToken[]): string {
  const marks: Array<[number, number]> = [];
  for (const w of canonicalWords(text)) {
    let end = 0;
    for (const t of tokens) {
      if (t.kind === 'postal') continue;
      if (w.folded === t.folded) end = w.end;
      else if (t.prefix && w.folded.startsWith(t.folded)) end = Math.max(end, Math.min(w.end, w.start + t.folded.length));
      else if (t.kind === 'word' && fuzziness(t.folded) > 0 && editDistance(t.folded, w.folded, fuzziness(t.folded)) <= fuzziness(t.folded)) end = w.end;
      if (end === w.end) break;
    }
    if (end > w.start) marks.push([w.start, end]);
  }
  for (const t of tokens) {
    if (t.kind !== 'postal' && !(t.kind === 'number' && t.folded.length >= 3)) continue;
    for (const m of text.matchAll(/(?<!\d)(\d{3}) ?(\d{2})(?!\d)/g)) {
      const digits = m[1] + m[2];
      if (!(digits === t.folded || (t.prefix && digits.startsWith(t.folded)))) continue;
      const start = m.index ?? 0;
      // Map the number of digits covered back onto `746 01` (skipping the space).
      let covered = 0;
      let end = start;
      while (covered < t.folded.length && end < start + m[0].length) {
        if (text[end] !== ' ') covered++;
        end++;
      }
      marks.push([start, end]);
    }
  }
  return render(text, merge(marks));
}

function merge(marks: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...marks].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const m of sorted) {
    const last = out[out.length - 1];
    if (last && m[0] <= last[1]) last[1] = Math.max(last[1], m[1]);
    else out.push([m[0], m[1]]);
  }
  return out;
}

function render(text: string, marks: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [s, e] of marks) {
    out += escapeHtml(text.slice(at, s)) + '<em>' + escapeHtml(text.slice(s, e)) + '</em>';
    at = e;
  }
  return out + escapeHtml(text.slice(at));
}
