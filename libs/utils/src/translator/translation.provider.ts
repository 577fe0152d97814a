/** The one interface every translation adapter implements. Codes are the provider's own spelling. */
export interface TranslationProvider {
  readonly name: string;
  /** Languages text can be translated from and to, as the provider publishes them. */
  languages(): Promise<LanguageList>;
  /** `source` is undefined for auto-detection. */
  translate(text: string, source: string | undefined, target: string): Promise<string>;
}

export interface LanguageList {
  source: readonly string[];
  target: readonly string[];
}

export const TRANSLATION_PROVIDER = Symbol('TRANSLATION_PROVIDER');

export interface ProviderOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}
