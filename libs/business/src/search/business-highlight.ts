import { escapeHtml } from '@lookup/contracts';
import { nameSpans } from '../domain/name-tokens';
import { NameQuery } from './name-query';

/**
 * Pure: the name with the parts the query matched in <em>, the rest HTML-escaped (the widget
 * inserts it as HTML). Whole words for whole-word matches, the typed part for a prefix; a
 * legal-form suffix is marked as a whole however it is written.
 */
export function highlightName(name: string, q: NameQuery): string {
  const marks: Array<[number, number]> = [];
  for (const s of nameSpans(name)) {
    let end = 0;
    for (const t of q.tokens) {
      if (s.token === t) {
        end = s.end;
        break;
      }
      if (s.token.startsWith(t)) end = Math.max(end, isLegalFormSpan(name, s) ? s.end : s.start + t.length);
    }
    if (end > s.start) marks.push([s.start, end]);
  }
  return render(name, marks);
}

/** A legal-form span is not the folded text itself (`s. r. o.` is the token `sro`). */
function isLegalFormSpan(name: string, s: { token: string; start: number; end: number }): boolean {
  return s.end - s.start !== s.token.length;
}

function render(text: string, marks: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [s, e] of marks.sort((a, b) => a[0] - b[0])) {
    if (s < at) continue;
    out += escapeHtml(text.slice(at, s)) + '<em>' + escapeHtml(text.slice(s, e)) + '</em>';
    at = e;
  }
  return out + escapeHtml(text.slice(at));
}
