import { DomainError } from '@lookup/contracts';
import { buildTranslationGroup } from './fbt-export';
import { parseTranslationFile } from './fbt-import';

const error = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a DomainError');
};
const param = (fn: () => unknown): string | null => error(fn).param;

// A translation file as fbt's tooling writes them (babel-plugin-fbt's translate step reads it):
// types are fbt's variation masks, 28 number and 3 gender.
const REAL_FILE = {
  'fb-locale': 'cs_CZ',
  translations: {
    'Or7o//7zCJf9ZbMJKiXbSw==': {
      tokens: ['number'],
      types: [28],
      translations: [
        { translation: 'Máte {number} nové zprávy', variations: { '0': 20 } },
        { translation: 'Máte {number} nových zpráv', variations: { '0': 24 } },
      ],
    },
    'L1HK6ZiEOS+/B55wQnPc0w==': { tokens: ['name'], types: [3], translations: [{ translation: 'Ahoj, {name}!', variations: { '0': 3 } }, { translation: 'Ahoj, pane {name}!', variations: { '0': 1 } }] },
    'cvX1pT6op95MhZ8ppE1ZGw==': { tokens: [], types: [], translations: [{ translation: 'Přihlásit se', variations: {} }] },
    'p6jOugQ2gD/bHN56Rfc1iQ==': null,
  },
};

describe('reading fbt translation files', () => {
  it('reads back what the export writes', () => {
    const rows = [
      { id: 1, phraseHash: 'h1', translation: 'Ahoj', tokens: [], types: [], variations: [], votes: 0, decidedAt: null },
      { id: 2, phraseHash: 'h2', translation: '{n} položek', tokens: ['n'], types: [2], variations: [24], votes: 0, decidedAt: null },
      { id: 3, phraseHash: 'h2', translation: '{n} položky', tokens: ['n'], types: [2], variations: [20], votes: 0, decidedAt: null },
      { id: 4, phraseHash: 'h3', translation: '{who} to má rád', tokens: ['who', 'n'], types: [1, 2], variations: [2, 4], votes: 0, decidedAt: null },
      { id: 5, phraseHash: 'h4', translation: 'Ona', tokens: ['p'], types: [3], variations: [2], votes: 0, decidedAt: null },
    ];
    const group = buildTranslationGroup('cs_CZ', rows);
    expect(group.translations['h3'].types).toEqual([3, 28]);
    expect(group.translations['h4'].types).toEqual([0]);
    const { locale, items } = parseTranslationFile(JSON.stringify(group));
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

  it("reads a real fbt translation file: fbt's masks (28 number, 3 gender) are stored as the API's types (2, 1)", () => {
    const { locale, items } = parseTranslationFile(JSON.stringify(REAL_FILE));
    expect(locale).toBe('cs_CZ');
    expect(items).toEqual([
      { phraseHash: 'Or7o//7zCJf9ZbMJKiXbSw==', translation: 'Máte {number} nové zprávy', tokens: ['number'], types: [2], variations: [20] },
      { phraseHash: 'Or7o//7zCJf9ZbMJKiXbSw==', translation: 'Máte {number} nových zpráv', tokens: ['number'], types: [2], variations: [24] },
      { phraseHash: 'L1HK6ZiEOS+/B55wQnPc0w==', translation: 'Ahoj, {name}!', tokens: ['name'], types: [1], variations: [3] },
      { phraseHash: 'L1HK6ZiEOS+/B55wQnPc0w==', translation: 'Ahoj, pane {name}!', tokens: ['name'], types: [1], variations: [1] },
      { phraseHash: 'cvX1pT6op95MhZ8ppE1ZGw==', translation: 'Přihlásit se', tokens: [], types: [], variations: [] },
    ]);
  });

  it('still reads files this API exported with its own types (1 gender, 2 number), and fbt\'s "any" variation', () => {
    const file = { 'fb-locale': 'cs_CZ', translations: { h: { tokens: ['n', 'g'], types: [2, 1], translations: [{ translation: 'x', variations: { 0: 20, 1: '*' } }] } } };
    expect(parseTranslationFile(JSON.stringify(file)).items).toEqual([{ phraseHash: 'h', translation: 'x', tokens: ['n'], types: [2], variations: [20] }]);
  });

  it('says what is wrong with types', () => {
    const unknown = error(() => parseTranslationFile('{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [7], "translations": []}}}'));
    expect(unknown).toMatchObject({ param: 'translations.h' });
    expect(unknown.message).toContain('types[0]: 7 is not an fbt variation type');
    const length = error(() => parseTranslationFile('{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [28, 3], "translations": []}}}'));
    expect(length.message).toContain('(got 1 tokens, 2 types)');
  });

  it.each([
    ['{', 'translations'],
    ['{"fb-locale": "cs_CZ"}', 'translations'],
    ['{"translations": {}}', 'locale'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [], "translations": []}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [2], "translations": [{"translation": "x", "variations": {"3": 4}}]}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": [], "types": [], "translations": [{"translation": ""}]}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": ["n"], "types": [4], "translations": []}}}', 'translations.h'],
    ['{"fb-locale": "cs_CZ", "translations": {"h": {"tokens": [1], "types": [28], "translations": []}}}', 'translations.h'],
  ])('%s -> invalid_parameter(%s)', (json, p) => {
    expect(param(() => parseTranslationFile(json))).toBe(p);
  });
});
