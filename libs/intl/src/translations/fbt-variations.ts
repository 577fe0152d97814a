import { FBT_NUMBER_MASK, FBT_VARIATION_TYPES } from '@lookup/contracts';

/**
 * Token types in two vocabularies.
 *
 * - The API's own (`submit`'s `types[]`, and what a Translation answers): fbt's jsfbt metadata
 *   type of the token (`IntlVariations.FbtVariationType`): 1 gender, 2 number, 3 pronoun. This
 *   is the stored form.
 * - fbt's translation files (what `fbt-translate --translations` reads and real translation
 *   files carry): the token's variation mask (`IntlVariations.Mask`): 3 gender, 28 number.
 *   fbt's translate step compares a translation's `types[i]` with the mask of the source's
 *   token and keeps only default variations when they differ, so the export must write masks.
 *   A pronoun has no mask in fbt (its forms are separate texts with their own hashes); the
 *   export writes 0 for it ("no mask", fbt then keeps only its default variation, as it would
 *   for any type it does not translate by).
 */
export const FBT_MASK = { gender: 0x03, number: FBT_NUMBER_MASK } as const;
const NO_MASK = 0;

/** The translation file's type of a stored (API) type. */
export function fileType(apiType: number): number {
  if (apiType === FBT_VARIATION_TYPES.gender) return FBT_MASK.gender;
  if (apiType === FBT_VARIATION_TYPES.number) return FBT_MASK.number;
  return NO_MASK;
}

/**
 * The stored (API) type of a translation file's type, or undefined. Reads fbt's masks (28
 * number, 3 gender), 0 (no mask: pronoun, as the export writes it) and, from files that this
 * API exported before it wrote masks, 1 gender and 2 number. 3 is always gender here: that is
 * what it means to fbt, and real translation files carry it.
 */
export function storedTypeOfFile(type: unknown): number | undefined {
  switch (type) {
    case FBT_MASK.number:
    case FBT_VARIATION_TYPES.number:
      return FBT_VARIATION_TYPES.number;
    case FBT_MASK.gender:
    case FBT_VARIATION_TYPES.gender:
      return FBT_VARIATION_TYPES.gender;
    case NO_MASK:
      return FBT_VARIATION_TYPES.pronoun;
  }
  return undefined;
}

/**
 * The stored (API) type of a submitted type: the API's 1/2/3, and fbt's number mask 28, which
 * cannot be mistaken for one of them. (fbt's gender mask 3 is the API's pronoun, so it keeps the
 * API's meaning here.) The gateway's request validation (`TranslationSubmitRequest` in
 * libs/contracts) lets 1, 2, 3 and 28 through.
 */
export function storedTypeOfSubmit(type: number): number {
  return type === FBT_MASK.number ? FBT_VARIATION_TYPES.number : type;
}

/** "Any" variation of a token (the API's 0): in a translation file the token is left out. */
export const ANY_VARIATION = 0;

// The parts of fbt's CLDR and gender tables that decide a locale's default ("fallback")
// variations (babel-plugin-fbt 1.0 `translate/CLDR/IntlNumberType`, `translate/gender/
// IntlGenderType`, `translate/FBLocaleToLang`; fbt-variations.spec.ts checks every locale fbt
// knows against them).
const LOCALE_LANG: Record<string, string> = { sz_PL: 'szl', fb_AR: 'ar', qk_DZ: 'kab', qs_DE: 'dsb', qv_IT: 'vec' };
const NUMBER_FALLBACK_MANY = new Set(['pl', 'be', 'ru', 'uk', 'szl']);
const GENDER_MERGED_LOCALES = new Set(['ar_AR', 'ht_HT', 'ks_IN', 'lv_LV', 'qk_DZ', 'qs_DE', 'qv_IT']);
const GENDER_MERGED_LANGS = new Set(['ar', 'ht', 'ks', 'lv', 'kab', 'dsb', 'vec']);

function langOf(locale: string): string {
  if (LOCALE_LANG[locale]) return LOCALE_LANG[locale];
  const i = locale.indexOf('_');
  return i >= 0 ? locale.slice(0, i) : locale;
}

/**
 * The variations fbt's translate step treats as the default (`*`) entry for the locale
 * (`TranslationConfig.isDefaultVariation`): the locale's number fallback (24 other; 12 many
 * for Polish, Belarusian, Russian, Ukrainian, Silesian) and its gender fallback (3 unknown;
 * 1 male where fbt merges unknown into male). fbt does not look at the token's type for this.
 */
export function defaultVariations(locale: string): [number: number, gender: number] {
  const lang = langOf(locale);
  const number = NUMBER_FALLBACK_MANY.has(lang) ? 12 : 24;
  const gender = GENDER_MERGED_LOCALES.has(locale) || GENDER_MERGED_LANGS.has(lang) ? 1 : 3;
  return [number, gender];
}

/**
 * The tokens a phrase varies by: the `token` of each entry of its table's jsfbt metadata `m`
 * (fbt 0.x and babel-plugin-fbt 1.x alike; an enum's entry is null); none for a text phrase.
 * A translation can only vary by these: fbt's translate step drops a translation that names
 * another token, and the source text stays.
 */
export function phraseTokens(phrase: { type: 'text' | 'table'; jsfbt: string }): string[] {
  if (phrase.type !== 'table') return [];
  let m: unknown;
  try {
    m = (JSON.parse(phrase.jsfbt) as { m?: unknown }).m;
  } catch {
    return [];
  }
  if (!Array.isArray(m)) return [];
  return m.flatMap((e) => (e !== null && typeof e === 'object' && typeof (e as { token?: unknown }).token === 'string' ? [(e as { token: string }).token] : []));
}
