import { AppConfig } from '@lookup/shared/config';
import { TranslationProvider } from './translation.provider';
import { GOOGLE_DEFAULT_URL, GoogleTranslateAdapter } from './google-translate.adapter';
import { DeeplAdapter, deeplDefaultUrl } from './deepl.adapter';
import { LIBRETRANSLATE_DEFAULT_URL, LibreTranslateAdapter } from './libretranslate.adapter';

/** The adapter TRANSLATOR_PROVIDER names, with its URL, key and timeout. */
export function createTranslationProvider(config: AppConfig): TranslationProvider {
  const common = { apiKey: config.TRANSLATOR_API_KEY, timeoutMs: config.TRANSLATOR_TIMEOUT_MS };
  switch (config.TRANSLATOR_PROVIDER) {
    case 'google':
      return new GoogleTranslateAdapter({ ...common, baseUrl: config.TRANSLATOR_URL ?? GOOGLE_DEFAULT_URL });
    case 'deepl':
      return new DeeplAdapter({ ...common, baseUrl: config.TRANSLATOR_URL ?? deeplDefaultUrl(config.TRANSLATOR_API_KEY) });
    case 'libretranslate':
      return new LibreTranslateAdapter({ ...common, baseUrl: config.TRANSLATOR_URL ?? LIBRETRANSLATE_DEFAULT_URL }, config.TRANSLATOR_LANGUAGES_TTL_SECONDS * 1000);
  }
}
