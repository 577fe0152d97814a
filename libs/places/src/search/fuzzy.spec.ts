import { editDistance, fuzziness, fuzzyExpansions } from './fuzzy';

describe('typo rule shared by both engines', () => {
  it('allows no edit below 4 letters, 1 up to 7, 2 from 8', () => {
    expect(['opa', 'opav', 'lihovar', 'lihovars'].map(fuzziness)).toEqual([0, 1, 1, 2]);
  });

  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit', () => {
    expect(editDistance('lihovarka', 'lihovarska')).toBe(1);
    expect(editDistance('lihovasrka', 'lihovarska')).toBe(1);
    expect(editDistance('opava', 'opaba')).toBe(1);
    expect(editDistance('ostrava', 'ostrova', 2)).toBe(1);
    expect(editDistance('opava', 'ostrava', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('expands over a vocabulary keeping the first letter, closest first', () => {
    expect(fuzzyExpansions('lihovarka', ['lihovarska', 'lihovarsky', 'mihovarka', 'lihovarka', 'libovka'])).toEqual(['lihovarka', 'lihovarska', 'lihovarsky']);
  });
});
