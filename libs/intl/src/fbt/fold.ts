/**
 * Search folding shared by PostgreSQL and SQLite: no collation or extension is needed, the
 * stored `search_text` and the query words are folded the same way here.
 */
export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .replace(/[øØ]/g, 'o')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Query words as LIKE patterns (`%word%`, with `\` escaping LIKE's wildcards). */
export function likePatterns(query: string, maxWords = 8): string[] {
  const words = foldText(query).split(' ').filter(Boolean).slice(0, maxWords);
  return words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
