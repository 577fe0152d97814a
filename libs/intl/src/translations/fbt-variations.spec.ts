import { readFileSync } from 'node:fs';
import { FBT_VARIATION_TYPES } from '@lookup/contracts';
import { defaultVariations, FBT_MASK, fileType, storedTypeOfFile, storedTypeOfSubmit } from './fbt-variations';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const IntlVariations = require('babel-plugin-fbt/dist/translate/IntlVariations') as { Mask: { NUMBER: number; GENDER: number }; FbtVariationType: { GENDER: number; NUMBER: number; PRONOUN: number } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TranslationConfig = require('babel-plugin-fbt/dist/translate/TranslationConfig') as {
  fromFBLocale(locale: string): { numberType: { getFallback(): number }; genderType: { getFallback(): number } };
};

describe("fbt's variation types", () => {
  it("are babel-plugin-fbt's constants: masks in files, jsfbt types in the API", () => {
    expect(FBT_MASK).toEqual({ gender: IntlVariations.Mask.GENDER, number: IntlVariations.Mask.NUMBER });
    expect(FBT_VARIATION_TYPES).toEqual({ gender: IntlVariations.FbtVariationType.GENDER, number: IntlVariations.FbtVariationType.NUMBER, pronoun: IntlVariations.FbtVariationType.PRONOUN });
    expect([1, 2, 3].map(fileType)).toEqual([3, 28, 0]);
    expect([28, 3, 0, 1, 2].map(storedTypeOfFile)).toEqual([2, 1, 3, 1, 2]);
    expect([4, '28', null, 24].map(storedTypeOfFile)).toEqual([undefined, undefined, undefined, undefined]);
    expect([1, 2, 3, 28].map(storedTypeOfSubmit)).toEqual([1, 2, 3, 2]);
  });

  it("know each locale's default variations as fbt's translate step does", () => {
    // Every locale and language fbt's tables name, plus a few plain ones.
    const src = (f: string) => readFileSync(require.resolve(`babel-plugin-fbt/dist/translate/${f}`), 'utf8');
    const names = new Set<string>(['cs_CZ', 'sk_SK', 'en_US', 'de_DE', 'pl_PL', 'ru_RU', 'xx_XX', 'cs']);
    for (const f of ['CLDR/IntlNumberType.js', 'gender/IntlGenderType.js', 'FBLocaleToLang.js']) {
      for (const m of src(f).matchAll(/^\s*"?([a-z]{2,3}(?:_[A-Z]{2})?)"?\s*:/gm)) names.add(m[1]);
    }
    const locales = [...names].flatMap((n) => (n.includes('_') ? [n] : [n, `${n}_XX`]));
    expect(locales.length).toBeGreaterThan(150);
    for (const locale of locales) {
      const config = TranslationConfig.fromFBLocale(locale);
      expect([locale, ...defaultVariations(locale)]).toEqual([locale, config.numberType.getFallback(), config.genderType.getFallback()]);
    }
  });
});
