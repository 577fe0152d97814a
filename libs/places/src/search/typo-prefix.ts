import type { TermClause } from './candidate-query';
import { editDistance, FUZZY_PREFIX_LENGTH, fuzzyExpansions } from './fuzzy';

/**
 * A typo in the word being typed: `jihav` is the start of `jihlava` with one edit. A term
 * matches when some prefix of it lies within the distance of what was typed (first letter
 * kept, as for whole words). Both engines get the same rule: SQLite as prefix queries over
 * the corrected starts its vocabulary holds, OpenSearch as regular expressions of the edited
 * spellings followed by anything; Lucene compiles them to one automaton over the term index,
 * the same way it runs its own fuzzy query.
 */

/** Edit distance (with adjacent transpositions) of `typed` to the closest prefix of `term`, capped at max + 1. */
export function prefixEditDistance(typed: string, term: string, max: number): number {
  const t = term.slice(0, typed.length + max);
  let best = max + 1;
  // The last row of the distance table holds typed vs every prefix of `t`.
  for (let k = Math.max(0, typed.length - max); k <= t.length; k++) best = Math.min(best, editDistance(typed, t.slice(0, k), max));
  return best;
}

/** The shortest start of `term` within the distance of `typed`, or null. */
function correctedStart(typed: string, term: string, max: number): string | null {
  for (let k = Math.max(1, typed.length - max); k <= Math.min(term.length, typed.length + max); k++) {
    const start = term.slice(0, k);
    if (editDistance(typed, start, max) <= max) return start;
  }
  return null;
}

/**
 * Pure: the prefixes a typed-with-a-typo word stands for, found over the vocabulary terms that
 * share its first letter (sorted): every term starting with one of them matches, no other.
 */
export function typoPrefixes(typed: string, terms: Iterable<string>, max: number): string[] {
  const found = new Set<string>();
  for (const term of terms) {
    const start = correctedStart(typed, term, max);
    if (start) found.add(start);
  }
  // `jih` covers `jihl`: keep only the starts no other start is a prefix of.
  const sorted = [...found].sort();
  const out: string[] = [];
  for (const s of sorted) if (!out.some((o) => s.startsWith(o))) out.push(s);
  return out;
}

/** Every spelling within `max` edits of `typed` (first letter kept), `.` standing for any letter. */
function editedSpellings(typed: string, max: number): Set<string> {
  let level = new Set([typed]);
  const all = new Set([typed]);
  for (let e = 0; e < max; e++) {
    const next = new Set<string>();
    for (const w of level) {
      for (let i = FUZZY_PREFIX_LENGTH; i <= w.length; i++) {
        if (i < w.length) {
          next.add(w.slice(0, i) + w.slice(i + 1));
          next.add(`${w.slice(0, i)}.${w.slice(i + 1)}`);
        }
        // An insertion at the end is covered by the trailing `.*`.
        if (i < w.length) next.add(`${w.slice(0, i)}.${w.slice(i)}`);
        if (i + 1 < w.length) next.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
      }
    }
    for (const w of next) all.add(w);
    level = next;
  }
  return all;
}

/** OpenSearch's default `index.max_regex_length` is 1000; longer alternations are split over several clauses. */
const MAX_REGEX = 900;

/** Pure: regular expressions (Lucene syntax) whose union is the terms within `max` edits of a start of `typed`. */
export function typoPrefixRegexps(typed: string, max: number): string[] {
  // A spelling that another one starts is implied by it (`jiha.*` covers `jihav.*`).
  const spellings = [...editedSpellings(typed, max)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const s of spellings) if (!kept.some((k) => s.startsWith(k))) kept.push(s);
  const out: string[] = [];
  let group: string[] = [];
  let size = 0;
  for (const s of kept.sort()) {
    if (size + s.length + 1 > MAX_REGEX && group.length) {
      out.push(`(${group.join('|')}).*`);
      group = [];
      size = 0;
    }
    group.push(s);
    size += s.length + 1;
  }
  if (group.length) out.push(`(${group.join('|')}).*`);
  return out;
}

/** A typo term of a candidate query, as the SQLite adapter expands it over its vocabulary. */
export interface TypoTerm {
  value: string;
  mode: 'fuzzy' | 'fuzzyPrefix';
  fuzziness?: number;
}

/** Key of a term's expansions: a word whole and the same word being typed expand differently. */
export function expansionKey(t: TypoTerm): string {
  return `${t.mode}:${t.value}`;
}

/**
 * Pure: what each typo term stands for over a sorted vocabulary: whole words (`fuzzy`) or
 * corrected starts (`fuzzyPrefix`). Only the terms that share the first letter are looked at.
 */
export function vocabularyExpansions(terms: TypoTerm[], vocabulary: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of terms) {
    const head = t.value.slice(0, FUZZY_PREFIX_LENGTH);
    const d = t.fuzziness ?? 1;
    const near: string[] = [];
    for (let i = lowerBound(vocabulary, head); i < vocabulary.length && vocabulary[i].startsWith(head); i++) {
      const term = vocabulary[i];
      if (t.mode === 'fuzzyPrefix' ? term.length >= t.value.length - d : Math.abs(term.length - t.value.length) <= d) near.push(term);
    }
    out[expansionKey(t)] = t.mode === 'fuzzyPrefix' ? typoPrefixes(t.value, near, d) : fuzzyExpansions(t.value, near, d);
  }
  return out;
}

/**
 * Pure: whether every term of an FTS5 query (an AND) can match some word of a sorted vocabulary:
 * a whole word must be in it, a word being typed must start one, a typo term must have found an
 * expansion there (or be in it as typed). False means the query finds nothing, without asking
 * the index; true does not promise a match (the words may sit in different documents).
 */
export function vocabularyHasAll(terms: TermClause[], vocabulary: string[], expansions: Record<string, string[]>): boolean {
  for (const t of terms) {
    if (t.mode === 'fuzzy' || t.mode === 'fuzzyPrefix') {
      if (expansions[expansionKey({ mode: t.mode, value: t.value })]?.length) continue;
    }
    const i = lowerBound(vocabulary, t.value);
    const word = i < vocabulary.length ? vocabulary[i] : undefined;
    const found = word !== undefined && (t.mode === 'prefix' || t.mode === 'fuzzyPrefix' ? word.startsWith(t.value) : word === t.value);
    if (!found) return false;
  }
  return true;
}

/** The first index whose term is >= `key` (terms sorted). */
function lowerBound(terms: string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
