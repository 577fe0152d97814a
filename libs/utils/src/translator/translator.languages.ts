/**
 * Published language lists shipped with the code, so validating `sl`/`tl` costs no request.
 * Google Cloud Translation v2 (`GET /language/translate/v2/languages`, 2024 list) and DeepL
 * (`GET /v2/languages`, source and target). LibreTranslate instances differ by the models they
 * installed, so theirs is fetched from the instance (`GET /languages`) and cached.
 */
export const GOOGLE_LANGUAGES: readonly string[] = [
  'af', 'ak', 'am', 'ar', 'as', 'ay', 'az', 'be', 'bg', 'bho', 'bm', 'bn', 'bs', 'ca', 'ceb', 'ckb', 'co', 'cs', 'cy', 'da',
  'de', 'doi', 'dv', 'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'fy', 'ga', 'gd', 'gl', 'gn', 'gom', 'gu',
  'ha', 'haw', 'he', 'hi', 'hmn', 'hr', 'ht', 'hu', 'hy', 'id', 'ig', 'ilo', 'is', 'it', 'iw', 'ja', 'jv', 'jw', 'ka', 'kk',
  'km', 'kn', 'ko', 'kri', 'ku', 'ky', 'la', 'lb', 'lg', 'ln', 'lo', 'lt', 'lus', 'lv', 'mai', 'mg', 'mi', 'mk', 'ml', 'mn',
  'mni-Mtei', 'mr', 'ms', 'mt', 'my', 'ne', 'nl', 'no', 'nso', 'ny', 'om', 'or', 'pa', 'pl', 'ps', 'pt', 'qu', 'ro', 'ru', 'rw',
  'sa', 'sd', 'si', 'sk', 'sl', 'sm', 'sn', 'so', 'sq', 'sr', 'st', 'su', 'sv', 'sw', 'ta', 'te', 'tg', 'th', 'ti', 'tk',
  'tl', 'tr', 'ts', 'tt', 'ug', 'uk', 'ur', 'uz', 'vi', 'xh', 'yi', 'yo', 'zh', 'zh-CN', 'zh-TW', 'zu',
];

export const DEEPL_SOURCE_LANGUAGES: readonly string[] = [
  'AR', 'BG', 'CS', 'DA', 'DE', 'EL', 'EN', 'ES', 'ET', 'FI', 'FR', 'HU', 'ID', 'IT', 'JA', 'KO', 'LT', 'LV', 'NB', 'NL',
  'PL', 'PT', 'RO', 'RU', 'SK', 'SL', 'SV', 'TR', 'UK', 'ZH',
];

/** Targets add the regional variants; bare EN and PT stay accepted (DeepL keeps them for compatibility). */
export const DEEPL_TARGET_LANGUAGES: readonly string[] = [
  ...DEEPL_SOURCE_LANGUAGES, 'EN-GB', 'EN-US', 'ES-419', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT',
];

/** Codes compare case-insensitively, `_` as `-`: `pt_br`, `PT-BR` and `pt-BR` are one language. */
export function normalizeCode(code: string): string {
  return code.trim().replace(/_/g, '-').toLowerCase();
}

/** The provider's own spelling of `code`, or undefined when the list does not have it. */
export function findLanguage(list: readonly string[], code: string): string | undefined {
  const want = normalizeCode(code);
  return list.find((c) => normalizeCode(c) === want);
}
