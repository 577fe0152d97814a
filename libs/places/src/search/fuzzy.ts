/**
 * Typo tolerance, the same rule on both engines: OpenSearch's `fuzzy` query is given these
 * distances with `prefix_length` 1 and transpositions, and the SQLite adapter expands a term
 * over its vocabulary with the same distance function, so both accept the same spellings.
 */
export const FUZZY_PREFIX_LENGTH = 1;
export const FUZZY_MAX_EXPANSIONS = 50;

/** Allowed edits for a word of this length: none below 4 letters, 1 up to 7, 2 from 8. */
export function fuzziness(word: string): number {
  if (word.length < 4) return 0;
  return word.length < 8 ? 1 : 2;
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), capped at max + 1. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2][j - 2] + 1);
      rows[i][j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** Vocabulary terms within the allowed distance, closest first (then alphabetical), at most FUZZY_MAX_EXPANSIONS. */
export function fuzzyExpansions(word: string, vocabulary: Iterable<string>, distance = fuzziness(word)): string[] {
  const hits: Array<[number, string]> = [];
  const head = word.slice(0, FUZZY_PREFIX_LENGTH);
  for (const term of vocabulary) {
    if (!term.startsWith(head)) continue;
    const d = editDistance(word, term, distance);
    if (d <= distance) hits.push([d, term]);
  }
  hits.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return hits.slice(0, FUZZY_MAX_EXPANSIONS).map((h) => h[1]);
}
