import { DomainError, parseRequest, TranslateRequest } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { TranslatorService } from './translator.service';
import { createTranslationProvider } from './translation-provider.factory';
import { FakeProvider, fakeDeepl, fakeGoogle, fakeLibreTranslate } from './fake-providers.testing';
import { GOOGLE_LANGUAGES } from './translator.languages';
import { LibreTranslateAdapter } from './libretranslate.adapter';

type Kind = 'google' | 'deepl' | 'libretranslate';
const KEY = 'test-key-123';
const FAKES: Record<Kind, (key: string) => Promise<FakeProvider>> = { google: fakeGoogle, deepl: fakeDeepl, libretranslate: fakeLibreTranslate };

function serviceFor(kind: Kind, url: string, key = KEY, timeoutMs = 10000): TranslatorService {
  const config = loadConfig({}, { TRANSLATOR_PROVIDER: kind, TRANSLATOR_URL: url, TRANSLATOR_API_KEY: key, TRANSLATOR_TIMEOUT_MS: timeoutMs });
  return new TranslatorService(createTranslationProvider(config));
}

const req = (p: Record<string, unknown>) => parseRequest(TranslateRequest, p);

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe.each<Kind>(['google', 'deepl', 'libretranslate'])('translator against a loopback %s server', (kind) => {
  let fake: FakeProvider;
  let svc: TranslatorService;

  beforeAll(async () => {
    fake = await FAKES[kind](KEY);
    svc = serviceFor(kind, fake.url);
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.refusals.length = 0;
    fake.seen.length = 0;
  });

  it('translates with an explicit source language, sending the provider its own contract', async () => {
    expect(await svc.translate(req({ q: 'Dobrý den', sl: 'cs', tl: 'en' }))).toEqual({ translation: 'Good afternoon' });
    const call = fake.seen.find((s) => s.method === 'POST')!;
    if (kind === 'google') {
      expect(call.path).toBe(`/language/translate/v2?key=${KEY}`);
      expect(call.body).toEqual({ q: 'Dobrý den', source: 'cs', target: 'en', format: 'text' });
    } else if (kind === 'deepl') {
      expect(call.path).toBe('/v2/translate');
      expect(call.headers['authorization']).toBe(`DeepL-Auth-Key ${KEY}`);
      expect(call.body).toEqual({ text: ['Dobrý den'], source_lang: 'CS', target_lang: 'EN' });
    } else {
      expect(call.path).toBe('/translate');
      expect(call.body).toEqual({ q: 'Dobrý den', source: 'cs', target: 'en', format: 'text', api_key: KEY });
    }
  });

  it('lets the provider detect the source when sl is auto or absent', async () => {
    expect(await svc.translate(req({ q: 'dog', sl: 'auto', tl: 'de' }))).toEqual({ translation: 'Hund' });
    expect(await svc.translate(req({ q: 'dog', tl: 'sk' }))).toEqual({ translation: 'pes' });
    const bodies = fake.seen.filter((s) => s.method === 'POST').map((s) => s.body as Record<string, unknown>);
    for (const b of bodies) expect(b['source'] ?? b['source_lang'] ?? 'auto').toBe('auto');
  });

  it('refuses codes the provider does not publish, naming sl or tl, without calling it', async () => {
    const tl = await failure(svc.translate(req({ q: 'x', sl: 'en', tl: 'xx' })));
    expect([tl.type, tl.param, tl.status]).toEqual(['invalid_parameter', 'tl', 400]);
    const sl = await failure(svc.translate(req({ q: 'x', sl: 'qq', tl: 'en' })));
    expect([sl.type, sl.param]).toEqual(['invalid_parameter', 'sl']);
    expect(fake.seen.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('passes the provider rate limit on as rate_limit with its Retry-After', async () => {
    const body = kind === 'google' ? { error: { code: 429, message: 'Too Many Requests' } } : kind === 'deepl' ? { message: 'Too many requests' } : { error: 'Slowdown: 30 per 1 minute' };
    fake.refusals.push({ status: 429, body, headers: { 'retry-after': '7' } });
    const e = await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
    expect([e.type, e.status, e.retryAfter]).toEqual(['rate_limit', 400, 7]);
  });

  it('turns the provider failing (5xx) into service_unavailable, and a slow one into timeout', async () => {
    fake.refusals.push({ status: 503, body: { error: 'down' } });
    const down = await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
    expect([down.type, down.status]).toEqual(['service_unavailable', 503]);
    fake.refusals.push({ status: 200, body: {}, delayMs: 20000 });
    const slow = await failure(serviceFor(kind, fake.url, KEY, 200).translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
    expect([slow.type, slow.status]).toEqual(['timeout', 504]);
  });

  it('reports refused credentials as a server fault, not the caller’s', async () => {
    const e = await failure(serviceFor(kind, fake.url, 'wrong-key').translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
    expect(e.status).toBeGreaterThanOrEqual(500);
    expect(e.type).toBe('service_unavailable');
  });

  it('turns an unreachable provider into service_unavailable', async () => {
    const e = await failure(serviceFor(kind, 'http://127.0.0.1:1').translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
    expect(e.type).toBe('service_unavailable');
  });
});

describe('provider-specific answers', () => {
  it('google: publishes more than 100 languages; daily quota is a 503, user rate limit a rate_limit', async () => {
    expect(new Set(GOOGLE_LANGUAGES).size).toBeGreaterThan(100);
    const fake = await fakeGoogle(KEY);
    try {
      const svc = serviceFor('google', fake.url);
      expect(await svc.translate(req({ q: 'pes', sl: 'CS', tl: 'zh_cn' }))).toEqual({ translation: '[zh] pes' });
      expect((fake.seen[0].body as Record<string, string>)['target']).toBe('zh-CN');
      fake.refusals.push({ status: 403, body: { error: { code: 403, message: 'Daily Limit Exceeded', errors: [{ reason: 'dailyLimitExceeded' }] } } });
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })))).type).toBe('service_unavailable');
      fake.refusals.push({ status: 403, body: { error: { code: 403, message: 'User Rate Limit Exceeded', errors: [{ reason: 'userRateLimitExceeded' }] } } });
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })))).type).toBe('rate_limit');
    } finally {
      await fake.close();
    }
  });

  it('deepl: 456 (quota spent) is a 503, 529 a rate_limit; regional targets are accepted', async () => {
    const fake = await fakeDeepl(KEY);
    try {
      const svc = serviceFor('deepl', fake.url);
      expect(await svc.translate(req({ q: 'Good morning', sl: 'en', tl: 'de' }))).toEqual({ translation: 'Guten Morgen' });
      await svc.translate(req({ q: 'x', sl: 'en', tl: 'pt-br' }));
      expect((fake.seen[1].body as Record<string, string>)['target_lang']).toBe('PT-BR');
      fake.refusals.push({ status: 456, body: { message: 'Quota exceeded' } });
      const q = await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })));
      expect([q.type, q.status]).toEqual(['service_unavailable', 503]);
      fake.refusals.push({ status: 529, body: { message: 'Too many requests' } });
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })))).type).toBe('rate_limit');
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'hi' })))).param).toBe('tl');
    } finally {
      await fake.close();
    }
  });

  it('libretranslate: the language list comes from the instance and is cached for the TTL', async () => {
    const fake = await fakeLibreTranslate(KEY, ['en', 'de', 'fr']);
    try {
      let now = 0;
      const adapter = new LibreTranslateAdapter({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 10000 }, 60000, () => now);
      const svc = new TranslatorService(adapter);
      await svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' }));
      await svc.translate(req({ q: 'dog', sl: 'en', tl: 'fr' }));
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'cs' })))).param).toBe('tl');
      expect(fake.seen.filter((s) => s.path === '/languages')).toHaveLength(1);
      now = 61000;
      await svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' }));
      expect(fake.seen.filter((s) => s.path === '/languages')).toHaveLength(2);
      // A failed list fetch is not cached: the next call asks again.
      now = 130000;
      fake.refusals.push({ status: 500, body: { error: 'boom' } });
      expect((await failure(svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' })))).type).toBe('service_unavailable');
      expect(await svc.translate(req({ q: 'dog', sl: 'en', tl: 'de' }))).toEqual({ translation: 'Hund' });
    } finally {
      await fake.close();
    }
  });
});
