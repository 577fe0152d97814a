import { expansionKey, prefixEditDistance, typoPrefixes, typoPrefixRegexps, vocabularyExpansions, vocabularyHasAll } from './typo-prefix';

/** What a Lucene regexp (the subset we emit: literals, `.`, `|`, groups, a trailing `.*`) accepts, in JavaScript. */
function accepts(regexps: string[], term: string): boolean {
  return regexps.some((r) => new RegExp(`^${r}$`).test(term));
}

const VOCABULARY = ['jihlava', 'jihlavska', 'jihocesk', 'jilemnice', 'jindrichuv', 'jizni', 'opava', 'polenska', 'slavkov', 'slavkovice'].sort();

describe('a typo in the word being typed', () => {
  it('measures the typed text against the closest start of a term', () => {
    expect(prefixEditDistance('jihav', 'jihlava', 1)).toBe(1);
    expect(prefixEditDistance('jilhav', 'jihlava', 1)).toBe(1);
    expect(prefixEditDistance('jihl', 'jihlava', 1)).toBe(0);
    expect(prefixEditDistance('jxyz', 'jihlava', 1)).toBe(2);
    expect(prefixEditDistance('slavkof', 'slavkov', 1)).toBe(1);
  });

  it('finds the corrected starts in the vocabulary, the shortest of each', () => {
    const starts = typoPrefixes('jihav', VOCABULARY.filter((t) => t.startsWith('j')), 1);
    expect(starts).toEqual(['jihlav']);
    expect(starts.some((s) => 'jihlava'.startsWith(s))).toBe(true);
    expect(starts.some((s) => 'jindrichuv'.startsWith(s))).toBe(false);
  });

  it('gives OpenSearch regular expressions accepting the same terms as the vocabulary rule', () => {
    for (const [typed, d] of [['jihav', 1], ['jilhav', 1], ['slavkof', 1], ['polesnka', 2], ['jihlavsak', 2]] as const) {
      const res = typoPrefixRegexps(typed, d);
      for (const r of res) expect(r.length).toBeLessThanOrEqual(1000);
      for (const term of VOCABULARY) expect([typed, term, accepts(res, term)]).toEqual([typed, term, prefixEditDistance(typed, term, d) <= d]);
    }
  });

  it('expands whole-word typos and typed starts apart, keyed by mode', () => {
    const out = vocabularyExpansions([{ value: 'jihlav', mode: 'fuzzy', fuzziness: 1 }, { value: 'jihlav', mode: 'fuzzyPrefix', fuzziness: 1 }], VOCABULARY);
    expect(out[expansionKey({ value: 'jihlav', mode: 'fuzzy' })]).toEqual(['jihlava']);
    // `jihla` (one letter fewer) is a start of both jihlava and jihlavska.
    expect(out[expansionKey({ value: 'jihlav', mode: 'fuzzyPrefix' })]).toEqual(['jihla']);
  });
});

describe('whether every word of a query can match the vocabulary', () => {
  const none = {};
  it('needs a whole word in it and a typed word to start one of its words', () => {
    expect(vocabularyHasAll([{ value: 'opava', mode: 'exact' }, { value: 'slav', mode: 'prefix' }], VOCABULARY, none)).toBe(true);
    expect(vocabularyHasAll([{ value: 'opav', mode: 'exact' }], VOCABULARY, none)).toBe(false);
    expect(vocabularyHasAll([{ value: 'opava', mode: 'exact' }, { value: 'slavx', mode: 'prefix' }], VOCABULARY, none)).toBe(false);
    // Past the last word, and before the first.
    expect(vocabularyHasAll([{ value: 'zz', mode: 'prefix' }], VOCABULARY, none)).toBe(false);
    expect(vocabularyHasAll([{ value: 'a', mode: 'prefix' }], VOCABULARY, none)).toBe(false);
    expect(vocabularyHasAll([], VOCABULARY, none)).toBe(true);
  });

  it('takes a typo word that found an expansion, or is itself in it', () => {
    const terms = [{ value: 'jihlav', mode: 'fuzzy' as const, fuzziness: 1 }, { value: 'jihav', mode: 'fuzzyPrefix' as const, fuzziness: 1 }];
    expect(vocabularyHasAll(terms, VOCABULARY, vocabularyExpansions(terms, VOCABULARY))).toBe(true);
    const far = [{ value: 'jxyzab', mode: 'fuzzy' as const, fuzziness: 1 }];
    expect(vocabularyHasAll(far, VOCABULARY, vocabularyExpansions(far, VOCABULARY))).toBe(false);
    // No expansion, but the word as typed is there.
    expect(vocabularyHasAll([{ value: 'opava', mode: 'fuzzy' }], VOCABULARY, none)).toBe(true);
    expect(vocabularyHasAll([{ value: 'opa', mode: 'fuzzyPrefix' }], VOCABULARY, none)).toBe(true);
  });
});
