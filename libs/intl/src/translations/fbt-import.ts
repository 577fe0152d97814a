import { DomainError, FBT_VARIATION_VALUES, LOCALE_PATTERN } from '@lookup/contracts';
import { storedTypeOfFile } from './fbt-variations';

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
const VALUES: readonly number[] = FBT_VARIATION_VALUES;

/**
 * Reads an fbt translation file (the shape `fbt-translate --translations` takes and the export
 * answers). `types` are fbt's variation masks (28 number, 3 gender) and are stored as the API's
 * types (2 number, 1 gender); see fbt-variations.ts for the other values read. Each translation
 * keeps only the tokens it has a variation for, so one without variations is the phrase's
 * default translation.
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
    const fileTypes = (entry['types'] ?? []) as unknown[];
    if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) throw bad(at, '"tokens" must be an array of token names.');
    if (!Array.isArray(fileTypes)) throw bad(at, '"types" must be an array with one variation type per token.');
    if (fileTypes.length !== tokens.length) throw bad(at, `"tokens" and "types" must have one entry per token (got ${tokens.length} tokens, ${fileTypes.length} types).`);
    const types = fileTypes.map((type, i) => {
      const stored = storedTypeOfFile(type);
      if (stored === undefined) throw bad(at, `types[${i}]: ${JSON.stringify(type)} is not an fbt variation type (fbt's masks 28 number, 3 gender; also read: 1 gender, 2 number as this API exported them before, 0 no mask).`);
      return stored;
    });
    for (const t of entry['translations'] as unknown[]) {
      if (!isObject(t) || typeof t['translation'] !== 'string' || !t['translation'].trim() || t['translation'].length > 10000) throw bad(at, 'each translation needs a non-empty "translation" string.');
      const variations = t['variations'] ?? {};
      if (!isObject(variations)) throw bad(at, '"variations" must map token indexes to variation values.');
      // fbt's "any" ('*') is a token the translation does not vary by.
      const used = Object.entries(variations).filter(([, value]) => value !== '*').map(([index, value]) => {
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
