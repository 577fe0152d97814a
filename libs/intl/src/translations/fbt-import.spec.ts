import { DomainError } from '@lookup/contracts';
import { buildTranslationGroup } from './fbt-export';
import { parseTranslationFile } from './fbt-import';

const param = (fn: () => unknown): string | null => {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).param;
  }
  throw new Error('expected a DomainError');
};

describe('reading fbt translation files', () => {
  it('reads back what the export writes', () => {
    const rows = [
      { id: 1, phraseHash: 'h1', translation: 'Ahoj', tokens: [], types: [], variations: [], votes: 0, decidedAt: null },
      { id: 2, phraseHash: 'h2', translation: '{n} položek', tokens: ['n'], types: [2], variations: [24], votes: 0, decidedAt: null },
      { id: 3, phraseHash: 'h2', translation: '{n} položky', tokens: ['n'], types: [2], variations: [20], votes: 0, decidedAt: null },
      { id: 4, phraseHash: 'h3', translation: '{who} to má rád', tokens: ['who', 'n'], types: [1, 2], variations: [2, 4], votes: 0, decidedAt: null },
    ];
    const { locale, items } = parseTranslationFile(JSON.stringify(buildTranslationGroup('cs_CZ', rows)));
    expect(locale).toBe('cs_CZ');
    const key = (r: { phraseHash: string; translation: string; tokens: string[]; types: number[]; variations: number[] }) => JSON.stringify([r.phraseHash, r.translation, r.tokens, r.types, r.variations]);
    expect(items.map(key).sort()).toEqual(rows.map(key).sort());
  });

  it('keeps only the tokens a translation varies by, skips untranslated (null) entries, takes a locale override', () => {
    const file = { 'fb-locale': 'cs_CZ', translations: { h: { tokens: ['n', 'g'], types: [2, 1], translations: [{ translation: 'x', variations: { 1: 2 } }, { translation: 'y', variations: {} }] }, missing: null } };
    const { locale, items } = parseTranslationFile(JSON.stringify(file), 'sk_SK');
    expect(locale).toBe('sk_SK');
    expect(items).toEqual([
      { phraseHash: 'h', translation: 'x', tokens: ['g'], types: [1], variations: [2] },
      { phraseHash: 'h', translation: 'y', tokens: [], types: [], variations: [] },
    ]);
  });

  it.each([
    ['{', 'translations'],
    ['{"fb-locale": "cs_CZ"}', 'translations'],
    ['{"translations": {}}', 'locale'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [], "translations": []}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [2], "translations": [{"translation": "x", "variations": {"3": 4}}]}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": [], "types": [], "translations": [{"translation": ""}]}}}', 'translations.h'],
  ])('%s -> invalid_parameter(%s)', (json, p) => {
    expect(param(() => parseTranslationFile(json))).toBe(p);
  });
});
