import { DomainError, ErrorTypes } from '@lookup/contracts';
import { LanguageList, ProviderOptions, TranslationProvider } from './translation.provider';
import { commonFailure, ProviderFailure, providerJson } from './provider-http';
import { DEEPL_SOURCE_LANGUAGES, DEEPL_TARGET_LANGUAGES } from './translator.languages';

/** Keys ending in `:fx` belong to the free plan, served from its own host. */
export function deeplDefaultUrl(apiKey: string | undefined): string {
  return apiKey?.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com';
}
const NAME = 'deepl';

interface DeeplResponse {
  translations?: Array<{ detected_source_language?: string; text?: string }>;
}

/** DeepL API v2: `POST /v2/translate`, key in `Authorization: DeepL-Auth-Key`, JSON body. */
export class DeeplAdapter implements TranslationProvider {
  readonly name = NAME;
  constructor(private readonly options: ProviderOptions) {}

  async languages(): Promise<LanguageList> {
    return { source: DEEPL_SOURCE_LANGUAGES, target: DEEPL_TARGET_LANGUAGES };
  }

  async translate(text: string, source: string | undefined, target: string): Promise<string> {
    const body: Record<string, unknown> = { text: [text], target_lang: target };
    if (source) body['source_lang'] = source;
    const headers: Record<string, string> = {};
    if (this.options.apiKey) headers['authorization'] = `DeepL-Auth-Key ${this.options.apiKey}`;
    const url = new URL('/v2/translate', this.options.baseUrl).toString();
    const res = await providerJson<DeeplResponse>(NAME, url, { body, headers, timeoutMs: this.options.timeoutMs }, deeplFailure);
    const out = res.translations?.[0]?.text;
    if (typeof out !== 'string') throw new DomainError(ErrorTypes.serviceUnavailable, 'The translation provider (deepl) sent no translation.');
    return out;
  }
}

/** DeepL's own codes: 456 = this server's character quota is spent, 529 = too many requests. */
export function deeplFailure(f: ProviderFailure): DomainError {
  if (f.status === 456) return new DomainError(ErrorTypes.serviceUnavailable, 'The translation quota of this server at the provider (deepl) is spent.');
  if (f.status === 529) return commonFailure(NAME, { ...f, status: 429 });
  if (f.status === 400 && /lang/i.test(f.message)) return DomainError.invalidParameter('tl', `the provider refused the language (${f.message}).`);
  if (f.status === 413 || f.status === 414) return DomainError.invalidParameter('q', 'the text is too long for the provider.');
  return commonFailure(NAME, f);
}
