import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fbtHashKey, JsfbtTree } from '../fbt/fbt-hash';
import { ApprovedTranslation, buildTranslationGroup } from './fbt-export';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { processJSON } = require('babel-plugin-fbt/dist/bin/translateUtils') as {
  processJSON(json: unknown, options: { jenkins: boolean; hashModule: false; strict: boolean }): Record<string, Record<string, unknown>>;
};

const collection = JSON.parse(readFileSync(join(__dirname, '../fixtures/shop.fbt-1.0.collection.json'), 'utf8')) as {
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
      types: [2],
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
});
