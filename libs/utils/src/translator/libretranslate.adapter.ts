import { DomainError, ErrorTypes } from '@lookup/contracts';
import { LanguageList, ProviderOptions, TranslationProvider } from './translation.provider';
import { commonFailure, ProviderFailure, providerJson } from './provider-http';

export const LIBRETRANSLATE_DEFAULT_URL = 'http://127.0.0.1:5000';
const NAME = 'libretranslate';

interface LibreLanguage {
  code: string;
  name?: string;
  targets?: string[];
}

/**
 * LibreTranslate: `POST /translate` ({q, source, target, format, api_key}) and `GET /languages`.
 * The language list is the instance's own (it depends on the models installed), cached for `ttlMs`.
 */
export class LibreTranslateAdapter implements TranslationProvider {
  readonly name = NAME;
  private cached: { at: number; list: Promise<LanguageList> } | null = null;

  constructor(
    private readonly options: ProviderOptions,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  languages(): Promise<LanguageList> {
    if (this.cached && this.now() - this.cached.at < this.ttlMs) return this.cached.list;
    const list = this.fetchLanguages();
    this.cached = { at: this.now(), list };
    // A failed fetch is not kept: the next call asks again.
    list.catch(() => {
      if (this.cached?.list === list) this.cached = null;
    });
    return list;
  }

  async translate(text: string, source: string | undefined, target: string): Promise<string> {
    const body: Record<string, string> = { q: text, source: source ?? 'auto', target, format: 'text' };
    if (this.options.apiKey) body['api_key'] = this.options.apiKey;
    const url = new URL('/translate', this.options.baseUrl).toString();
    const res = await providerJson<{ translatedText?: unknown }>(NAME, url, { body, timeoutMs: this.options.timeoutMs }, libreFailure);
    if (typeof res.translatedText !== 'string') throw new DomainError(ErrorTypes.serviceUnavailable, 'The translation provider (libretranslate) sent no translation.');
    return res.translatedText;
  }

  private async fetchLanguages(): Promise<LanguageList> {
    const url = new URL('/languages', this.options.baseUrl).toString();
    const list = await providerJson<LibreLanguage[]>(NAME, url, { method: 'GET', timeoutMs: this.options.timeoutMs }, libreFailure);
    if (!Array.isArray(list)) throw new DomainError(ErrorTypes.serviceUnavailable, 'The translation provider (libretranslate) sent no language list.');
    const source = list.map((l) => l.code).filter((c): c is string => typeof c === 'string');
    const target = [...new Set(list.flatMap((l) => (Array.isArray(l.targets) ? l.targets : [l.code])))].filter((c) => typeof c === 'string');
    return { source, target };
  }
}

/** LibreTranslate answers 400 with `{"error": "... is not supported"}` for a language it lacks. */
export function libreFailure(f: ProviderFailure): DomainError {
  if (f.status === 400 && /not supported|language/i.test(f.message)) return DomainError.invalidParameter('tl', `the provider refused the language (${f.message}).`);
  return commonFailure(NAME, f);
}
