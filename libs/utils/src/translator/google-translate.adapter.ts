import { DomainError, ErrorTypes } from '@lookup/contracts';
import { LanguageList, ProviderOptions, TranslationProvider } from './translation.provider';
import { commonFailure, ProviderFailure, providerJson } from './provider-http';
import { GOOGLE_LANGUAGES } from './translator.languages';

export const GOOGLE_DEFAULT_URL = 'https://translation.googleapis.com';
const NAME = 'google';

interface GoogleTranslateResponse {
  data?: { translations?: Array<{ translatedText?: string; detectedSourceLanguage?: string }> };
}

/** Google Cloud Translation, Basic edition (v2 REST): `POST /language/translate/v2?key=...`. */
export class GoogleTranslateAdapter implements TranslationProvider {
  readonly name = NAME;
  constructor(private readonly options: ProviderOptions) {}

  async languages(): Promise<LanguageList> {
    return { source: GOOGLE_LANGUAGES, target: GOOGLE_LANGUAGES };
  }

  async translate(text: string, source: string | undefined, target: string): Promise<string> {
    const url = new URL('/language/translate/v2', this.options.baseUrl);
    if (this.options.apiKey) url.searchParams.set('key', this.options.apiKey);
    // format=text: the answer is plain text, not HTML with entities.
    const body: Record<string, string> = { q: text, target, format: 'text' };
    if (source) body['source'] = source;
    const res = await providerJson<GoogleTranslateResponse>(NAME, url.toString(), { body, timeoutMs: this.options.timeoutMs }, googleFailure);
    const out = res.data?.translations?.[0]?.translatedText;
    if (typeof out !== 'string') throw new DomainError(ErrorTypes.serviceUnavailable, 'The translation provider (google) sent no translation.');
    return out;
  }
}

/**
 * Google answers quota trouble as 403 with reason `rateLimitExceeded`/`userRateLimitExceeded`
 * (throttling, ours to pass on) or `dailyLimitExceeded`/`quotaExceeded` (this server's account
 * is spent: a 503, the caller can do nothing about it); 400 is a language pair it refuses.
 */
export function googleFailure(f: ProviderFailure): DomainError {
  const m = f.message.toLowerCase();
  if (f.status === 403 && /ratelimit|rate limit/.test(m.replace(/\s+/g, ' ')) && !/daily/.test(m)) {
    return commonFailure(NAME, { ...f, status: 429 });
  }
  if (f.status === 403 && /daily limit|quota/.test(m)) {
    return new DomainError(ErrorTypes.serviceUnavailable, 'The translation quota of this server at the provider (google) is spent.');
  }
  if (f.status === 400 && /language/.test(m)) return DomainError.invalidParameter('tl', `the provider cannot translate this language pair (${f.message}).`);
  return commonFailure(NAME, f);
}
