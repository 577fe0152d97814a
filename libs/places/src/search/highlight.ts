import { escapeHtml } from '@lookup/contracts';
import { editDistance, fuzziness } from './fuzzy';
import { QueryToken } from './query-parser';
import { canonicalWords, WordForms } from './doc-tokens';
import { foldedPrefixLength } from './text-fold';

/**
 * Pure: `text` with the parts the query matched wrapped in <em>, everything else HTML-escaped
 * (the widget inserts it as HTML). Whole words for exact and typo matches, the typed part for
 * a prefix; a postal code token marks the digits of `746 01` (`00-950`, `8001`) it covers.
 */
export function highlight(text: string, tokens: QueryToken[]): string {
  const marks: Array<[number, number]> = [];
  // German forms for every text: the highlighter does not know the country, and a mark too many does no harm.
  for (const w of canonicalWords(text, true)) {
    let end = 0;
    for (const t of tokens) {
      if (t.kind === 'postal') continue;
      const prefixOf = t.prefix ? w.forms.find((f) => f.startsWith(t.folded)) : undefined;
      if (w.forms.includes(t.folded)) end = w.end;
      else if (prefixOf) end = Math.max(end, w.start + typedLength(text.slice(w.start, w.end), w, prefixOf, t.folded.length));
      else if (t.kind === 'word' && fuzziness(t.folded) > 0 && w.forms.some((f) => editDistance(t.folded, f, fuzziness(t.folded)) <= fuzziness(t.folded))) end = w.end;
      if (end === w.end) break;
    }
    if (end > w.start) marks.push([w.start, end]);
  }
  for (const t of tokens) {
    if (t.kind !== 'postal' && !(t.kind === 'number' && t.folded.length >= 3)) continue;
    for (const m of text.matchAll(POSTAL_WRITTEN)) {
      const digits = m[0].replace(/\D/g, '');
      if (!(digits === t.folded || (t.prefix && digits.startsWith(t.folded)))) continue;
      const start = m.index ?? 0;
      // Map the number of digits covered back onto `746 01` or `00-950` (skipping the separator).
      let covered = 0;
      let end = start;
      while (covered < t.folded.length && end < start + m[0].length) {
        if (/\d/.test(text[end])) covered++;
        end++;
      }
      marks.push([start, end]);
    }
  }
  return render(text, merge(marks));
}

/** Postal codes as formatted: `746 01` (CZ/SK), `00-950` (PL), `8001` (AT/CH/LI). */
const POSTAL_WRITTEN = /(?<!\d)(?:\d{3} ?\d{2}|\d{2}-\d{3}|\d{4})(?!\d)/g;

/** Characters of the written word a typed prefix covers: exact for the folded and the umlaut forms, as many as typed for an expansion. */
function typedLength(written: string, w: WordForms, form: string, typed: number): number {
  if (form === w.raw) return foldedPrefixLength(written, typed);
  if (form === w.umlauts) return foldedPrefixLength(written, typed, true);
  return Math.min(written.length, typed);
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
