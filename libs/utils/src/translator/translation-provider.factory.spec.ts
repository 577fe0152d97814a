import { ConfigError, loadConfig } from '@lookup/shared/config';
import { createTranslationProvider } from './translation-provider.factory';
import { deeplDefaultUrl } from './deepl.adapter';

describe('utility settings from the environment', () => {
  it('reads the provider, its URL and key, and the IP/VIES settings', () => {
    const c = loadConfig({
      TRANSLATOR_PROVIDER: 'deepl',
      TRANSLATOR_URL: 'http://127.0.0.1:9999',
      TRANSLATOR_API_KEY: 'k:fx',
      IP_DNS_SERVERS: '127.0.0.1:5353',
      VIES_CACHE_TTL_SECONDS: '60',
    });
    expect([c.TRANSLATOR_PROVIDER, c.TRANSLATOR_URL, c.TRANSLATOR_API_KEY, c.IP_DNS_SERVERS, c.VIES_CACHE_TTL_SECONDS]).toEqual(['deepl', 'http://127.0.0.1:9999', 'k:fx', '127.0.0.1:5353', 60]);
    expect(createTranslationProvider(c).name).toBe('deepl');
  });

  it('defaults to a local LibreTranslate and refuses an unknown provider at boot', () => {
    expect(createTranslationProvider(loadConfig({})).name).toBe('libretranslate');
    expect(() => loadConfig({ TRANSLATOR_PROVIDER: 'babelfish' })).toThrow(ConfigError);
  });

  it('sends DeepL free-plan keys to the free host', () => {
    expect(deeplDefaultUrl('abc:fx')).toBe('https://api-free.deepl.com');
    expect(deeplDefaultUrl('abc')).toBe('https://api.deepl.com');
  });
});
