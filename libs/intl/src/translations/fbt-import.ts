import { DomainError, FBT_VARIATION_TYPES, FBT_VARIATION_VALUES, LOCALE_PATTERN } from '@lookup/contracts';

/** One translation read from an fbt translation file, in the store's per-translation shape. */
export interface ImportedTranslation {
  phraseHash: string;
  translation: string;
  tokens: string[];
  types: number[];
  variations: number[];
}

const PARAM = 'translations';
const MAX = 20000;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (where: string, why: string) => DomainError.invalidParameter(where, why);
const TYPES: number[] = Object.values(FBT_VARIATION_TYPES);
const VALUES: readonly number[] = FBT_VARIATION_VALUES;

/**
 * Reads an fbt translation file (the shape `fbt-translate --translations` takes and the export
 * answers). Each translation keeps only the tokens it has a variation for, so one without
 * variations is the phrase's default translation.
 */
export function parseTranslationFile(json: string, localeOverride?: string): { locale: string; items: ImportedTranslation[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw bad(PARAM, `not valid JSON (${(err as Error).message}).`);
  }
  if (!isObject(doc) || !isObject(doc['translations'])) throw bad(PARAM, 'must be an fbt translation file: {"fb-locale", "translations": {<hash>: {...}}}.');
  const locale = localeOverride ?? doc['fb-locale'];
  if (typeof locale !== 'string' || !LOCALE_PATTERN.test(locale)) throw bad('locale', 'the file has no "fb-locale" like xx_XX; send locale.');
  const items: ImportedTranslation[] = [];
  for (const [hash, entry] of Object.entries(doc['translations'])) {
    const at = `${PARAM}.${hash.slice(0, 40)}`;
    if (entry === null) continue; // fbt writes null for a phrase not translated yet
    if (!isObject(entry) || !Array.isArray(entry['translations'])) throw bad(at, 'must be {tokens, types, translations: [...]}.');
    const tokens = (entry['tokens'] ?? []) as unknown[];
    const types = (entry['types'] ?? []) as unknown[];
    if (!Array.isArray(tokens) || !Array.isArray(types) || tokens.length !== types.length || tokens.some((t) => typeof t !== 'string') || types.some((t) => !TYPES.includes(t as number))) {
      throw bad(at, 'tokens (names) and types (1 gender, 2 number, 3 pronoun) must be arrays of the same length.');
    }
    for (const t of entry['translations'] as unknown[]) {
      if (!isObject(t) || typeof t['translation'] !== 'string' || !t['translation'].trim() || t['translation'].length > 10000) throw bad(at, 'each translation needs a non-empty "translation" string.');
      const variations = t['variations'] ?? {};
      if (!isObject(variations)) throw bad(at, '"variations" must map token indexes to variation values.');
      const used = Object.entries(variations).map(([index, value]) => {
        const i = Number(index);
        const v = Number(value);
        if (!Number.isInteger(i) || i < 0 || i >= tokens.length || !VALUES.includes(v)) throw bad(at, `variation ${index}: ${JSON.stringify(value)} is not a token index with an fbt variation value.`);
        return [i, v] as const;
      });
      used.sort((a, b) => a[0] - b[0]);
      items.push({ phraseHash: hash, translation: t['translation'], tokens: used.map(([i]) => tokens[i] as string), types: used.map(([i]) => types[i] as number), variations: used.map(([, v]) => v) });
      if (items.length > MAX) throw bad(PARAM, `at most ${MAX} translations per upload.`);
    }
  }
  return { locale, items };
}
