import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fbtHashKey, JsfbtTree } from '../fbt/fbt-hash';
import { ApprovedTranslation, buildTranslationGroup } from './fbt-export';
import { parseTranslationFile } from './fbt-import';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { processJSON } = require('babel-plugin-fbt/dist/bin/translateUtils') as {
  processJSON(json: unknown, options: { jenkins: boolean; hashModule: false; strict: boolean }): Record<string, Record<string, unknown>>;
};

const COLLECTION_PATH = join(__dirname, '../fixtures/shop.fbt-1.0.collection.json');
const collection = JSON.parse(readFileSync(COLLECTION_PATH, 'utf8')) as {
  phrases: Array<{ hashToLeaf: Record<string, { text: string }>; jsfbt: { t: JsfbtTree } }>;
};
const hashOf = (text: string): string => collection.phrases.flatMap((p) => Object.entries(p.hashToLeaf)).find(([, l]) => l.text === text)![0];

let nextId = 1;
const row = (text: string, translation: string, over: Partial<ApprovedTranslation> = {}): ApprovedTranslation => ({
  id: nextId++,
  phraseHash: hashOf(text),
  translation,
  tokens: [],
  types: [],
  variations: [],
  votes: 0,
  decidedAt: '2026-11-22 10:00:00',
  ...over,
});

describe('export in the shape of fbt translation files', () => {
  it('groups by phrase hash, re-indexes variations by token, prefers more votes for the same variations', () => {
    const group = buildTranslationGroup('cs_CZ', [
      row('You have {number} items in the cart', 'V košíku máte {number} položek', { tokens: ['number'], types: [2], variations: [24] }),
      row('You have {number} items in the cart', 'V košíku je {number} položek', { tokens: ['number'], types: [2], variations: [24], votes: 5 }),
      row('You have {number} items in the cart', 'V košíku máte {number} položky', { tokens: ['number'], types: [2], variations: [20] }),
      row('Your cart', 'Váš košík'),
    ]);
    const plural = group.translations[hashOf('You have {number} items in the cart')];
    expect(plural).toEqual({
      tokens: ['number'],
      types: [28],
      translations: [
        { translation: 'V košíku je {number} položek', variations: { '0': 24 } },
        { translation: 'V košíku máte {number} položky', variations: { '0': 20 } },
      ],
    });
    expect(group['fb-locale']).toBe('cs_CZ');
    expect(group.translations[hashOf('Your cart')]).toEqual({ tokens: [], types: [], translations: [{ translation: 'Váš košík', variations: {} }] });
  });

  it("is read by fbt's own translate step, which keys the result by our fbtHashKey", () => {
    const group = buildTranslationGroup('cs_CZ', [
      row('Your cart', 'Váš košík'),
      row('You have {number} items in the cart', 'V košíku máte {number} položek', { tokens: ['number'], types: [2], variations: [24] }),
      row('You have 1 item in the cart', 'V košíku máte 1 položku'),
      row('Pay now', 'Zaplatit hned'),
      row('Pay later', 'Zaplatit později'),
    ]);
    const out = processJSON({ phrases: collection.phrases, translationGroups: [group] }, { jenkins: true, hashModule: false, strict: false });
    const keys = collection.phrases.map((p) => fbtHashKey(p.jsfbt.t));
    expect(Object.keys(out['cs_CZ']).sort()).toEqual([...keys].sort());
    expect(out['cs_CZ'][keys[0]]).toBe('Váš košík');
    expect(out['cs_CZ'][keys[1]]).toEqual({ '*': 'V košíku máte {number} položek', _1: 'V košíku máte 1 položku' });
    expect(out['cs_CZ'][keys[3]]).toEqual({ now: 'Zaplatit hned', later: 'Zaplatit později' });
  });

  // The API's types (1 gender, 2 number) for these rows; the file must carry fbt's masks.
  const czech = (): ApprovedTranslation[] => [
    row('Your cart', 'Váš košík'),
    row('You have {number} items in the cart', 'V košíku máte {number} položek', { tokens: ['number'], types: [2], variations: [24] }),
    row('You have {number} items in the cart', 'V košíku máte {number} položky', { tokens: ['number'], types: [2], variations: [20] }),
    row('You have {number} items in the cart', 'V košíku máte {number} položky (desetinné)', { tokens: ['number'], types: [2], variations: [12] }),
    row('You have 1 item in the cart', 'V košíku máte 1 položku'),
    row('{buyer} liked your photo', '{buyer} ocenil(a) vaši fotku', { tokens: ['buyer'], types: [1], variations: [0] }),
    row('{buyer} liked your photo', '{buyer} ocenil vaši fotku', { tokens: ['buyer'], types: [1], variations: [1] }),
    row('{buyer} liked your photo', '{buyer} ocenila vaši fotku', { tokens: ['buyer'], types: [1], variations: [2] }),
  ];
  const czechKeys = () => {
    const keys = collection.phrases.map((p) => fbtHashKey(p.jsfbt.t));
    return { plural: keys[1], liked: keys[2] };
  };
  const czechPlural = { '*': 'V košíku máte {number} položek', '20': 'V košíku máte {number} položky', '12': 'V košíku máte {number} položky (desetinné)', _1: 'V košíku máte 1 položku' };
  const czechLiked = { '*': '{buyer} ocenil(a) vaši fotku', '1': '{buyer} ocenil vaši fotku', '2': '{buyer} ocenila vaši fotku' };

  it("writes fbt's variation masks as types (28 number, 3 gender) and leaves an 'any' variation out", () => {
    const group = buildTranslationGroup('cs_CZ', czech());
    expect(group.translations[hashOf('You have {number} items in the cart')].types).toEqual([28]);
    expect(group.translations[hashOf('{buyer} liked your photo')]).toEqual({
      tokens: ['buyer'],
      types: [3],
      translations: [
        { translation: '{buyer} ocenila vaši fotku', variations: { '0': 2 } },
        { translation: '{buyer} ocenil vaši fotku', variations: { '0': 1 } },
        { translation: '{buyer} ocenil(a) vaši fotku', variations: {} },
      ],
    });
  });

  it("keeps a Czech plural's few and many forms and a gender's male and female forms through fbt's translate step", () => {
    const out = processJSON({ phrases: collection.phrases, translationGroups: [buildTranslationGroup('cs_CZ', czech())] }, { jenkins: true, hashModule: false, strict: false });
    const { plural, liked } = czechKeys();
    expect(out['cs_CZ'][plural]).toEqual(czechPlural);
    expect(out['cs_CZ'][liked]).toEqual(czechLiked);
  });

  it('runs the real fbt-translate command on the export (files, --jenkins)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intl-fbt-'));
    try {
      const file = join(dir, 'cs_CZ.json');
      writeFileSync(file, JSON.stringify(buildTranslationGroup('cs_CZ', czech())));
      const bin = join(__dirname, '../../../../node_modules/.bin/fbt-translate');
      const out = JSON.parse(execFileSync(bin, ['--source-strings', COLLECTION_PATH, '--translations', file, '--jenkins'], { encoding: 'utf8' })) as Record<string, Record<string, unknown>>;
      const { plural, liked } = czechKeys();
      expect(out['cs_CZ'][plural]).toEqual(czechPlural);
      expect(out['cs_CZ'][liked]).toEqual(czechLiked);
      expect(out['cs_CZ'][fbtHashKey(collection.phrases[0].jsfbt.t)]).toBe('Váš košík');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exports one translation per entry fbt files it under ('any' and the locale's default variation are one entry)", () => {
    const rows = [
      row('You have {number} items in the cart', 'V košíku máte {number} položek', { tokens: ['number'], types: [2], variations: [24], votes: 2 }),
      row('You have {number} items in the cart', 'Položek v košíku: {number}'), // no variation: the same default entry
      row('You have {number} items in the cart', 'V košíku máte {number} položky', { tokens: ['number'], types: [2], variations: [0] }),
      row('{buyer} liked your photo', '{buyer} ocenil(a) vaši fotku', { tokens: ['buyer'], types: [1], variations: [0], votes: 1 }),
      row('{buyer} liked your photo', 'Neznámý: {buyer} ocenil(a) vaši fotku', { tokens: ['buyer'], types: [1], variations: [3] }),
    ];
    const group = buildTranslationGroup('cs_CZ', rows);
    expect(group.translations[hashOf('You have {number} items in the cart')].translations).toEqual([{ translation: 'V košíku máte {number} položek', variations: { '0': 24 } }]);
    expect(group.translations[hashOf('{buyer} liked your photo')].translations).toEqual([{ translation: '{buyer} ocenil(a) vaši fotku', variations: {} }]);
    // Without that, fbt's translate step stops with "Unexpected duplicate key: number%*".
    const out = processJSON({ phrases: collection.phrases, translationGroups: [group] }, { jenkins: true, hashModule: false, strict: false });
    expect(out['cs_CZ'][czechKeys().plural]).toEqual({ '*': 'V košíku máte {number} položek', _1: 'You have 1 item in the cart' });
    // In Polish the default number variation is 12 (many), so 24 (other) is an entry of its own.
    const polish = buildTranslationGroup('pl_PL', rows.slice(0, 2));
    expect(polish.translations[hashOf('You have {number} items in the cart')].translations).toHaveLength(2);
  });

  it('reads back its own export and real fbt translation files (types [28])', () => {
    const { items } = parseTranslationFile(JSON.stringify(buildTranslationGroup('cs_CZ', czech())));
    const few = items.find((i) => i.variations[0] === 20)!;
    expect(few).toMatchObject({ tokens: ['number'], types: [2] });
    expect(items.find((i) => i.variations[0] === 2)).toMatchObject({ tokens: ['buyer'], types: [1] });
  });
});
