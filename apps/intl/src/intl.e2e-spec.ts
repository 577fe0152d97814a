import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Services } from '@lookup/contracts';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { IntlModule, IntlServiceModule, ProjectsService } from '@lookup/intl';
import { createServiceApp } from '@lookup/shared/runtime';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer, NatsTransportClient } from '@lookup/shared/transport';
import { describeWith, distributedTestEnv, errorOf, post, tempDir } from '@lookup/shared/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

type Method = (...args: unknown[]) => Promise<unknown>;
type Sdk = { phrases: Record<string, Method>; translations: Record<string, Method> };
type SdkError = { type: string; rawType: string; statusCode: number; param: string | null };

interface IntlUnderTest {
  baseUrl: string;
  port: number;
  /** A key bound to project `shop`, one bound to nothing. */
  key: string;
  unboundKey: string;
  projects: ProjectsService;
}

const sdk = (t: IntlUnderTest, key: string): Sdk => new Swiftyper(key, { host: '127.0.0.1', port: t.port, protocol: 'http' }) as Sdk;
const collection = readFileSync(join(__dirname, '../../../libs/intl/src/fixtures/shop.fbt-0.20.collection.json'), 'utf8');

async function sdkError(p: Promise<unknown>): Promise<SdkError> {
  try {
    await p;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

/** The intl API through the official Node client, the same in both profiles. */
function intlSuite(get: () => IntlUnderTest): void {
  const admin = 'admin@shop.example';
  const author = 'anna@shop.example';
  const voters = ['v1@shop.example', 'v2@shop.example', 'v3@shop.example', 'v4@shop.example'];

  beforeAll(async () => {
    const { projects } = get();
    await projects.create('shop');
    await projects.addMember('shop', admin, 'administrator');
    await projects.addMember('shop', author, 'translator');
    for (const v of voters) await projects.addMember('shop', v, 'translator');
  });

  it('phrases.upload saves a real fbt collection once; phrases.query searches it', async () => {
    const c = sdk(get(), get().key);
    expect(await c.phrases.upload({ native_strings: collection })).toEqual({ inserted: 10 });
    expect(await c.phrases.upload({ native_strings: collection })).toEqual({ inserted: 0 });
    const all = (await c.phrases.query()) as Array<Record<string, unknown>>;
    expect(all).toHaveLength(10);
    expect(Object.keys(all[0]).sort()).toEqual(['author', 'created_at', 'description', 'hash', 'id', 'object', 'parent_id', 'project', 'source', 'text']);
    const found = (await c.phrases.query({ query: 'obchode' })) as Array<{ text: string }>;
    expect(found.map((p) => p.text)).toEqual(['Vítejte v obchodě']);
  });

  it('translations.translate, vote up to approval, query and raw (the export) through the client', async () => {
    const c = sdk(get(), get().key);
    const [plural] = (await c.phrases.query({ query: 'items in the cart' })) as Array<{ hash: string }>;
    const t = (await c.translations.translate({
      translation: 'V košíku máte {number} položek',
      hash: plural.hash,
      phash: plural.hash,
      locale: 'cs_CZ',
      contributor: author,
      tokens: ['number'],
      types: [2],
      variations: [24],
    })) as Record<string, unknown>;
    expect(t).toMatchObject({ object: 'translation', approval_status: 'pending', phrase_hash: plural.hash, tokens: ['number'], types: [2], variations: [24], author, voted: false });
    const trid = t['id'] as number;
    // The spec's own path (singular) answers the same.
    const again = await post(get().baseUrl, '/v1/intl/translation/submit', { api_key: get().key, translation: t['translation'], hash: plural.hash, locale: 'cs_CZ', contributor: author, tokens: ['number'], types: [2], variations: [24] });
    expect([again.status, (again.body as { id: number }).id]).toEqual([200, trid]);
    // fbt's number mask (28, what its translation files carry) is read as the API's 2: the same translation.
    const masked = await post(get().baseUrl, '/v1/intl/translations/submit', { api_key: get().key, translation: t['translation'], hash: plural.hash, locale: 'cs_CZ', contributor: author, tokens: ['number'], types: [28], variations: [24] });
    expect([masked.status, (masked.body as { id: number; types: number[] }).id, (masked.body as { types: number[] }).types]).toEqual([200, trid, [2]]);

    const votes = await Promise.all(voters.map((contributor) => c.translations.vote({ trid, contributor })));
    expect(votes).toHaveLength(4);
    const dup = await sdkError(c.translations.vote({ trid, contributor: voters[0] }));
    expect([dup.type, dup.statusCode, dup.param]).toEqual(['SwiftyperInvalidParameterError', 400, 'contributor']);

    const approved = (await c.translations.query({ contributor: voters[0] })) as Array<Record<string, unknown>>;
    expect(approved).toEqual([expect.objectContaining({ id: trid, approval_status: 'approved', votes: 4, voted: true })]);
    const raw = (await c.translations.raw({ locale: 'cs_CZ' })) as { 'fb-locale': string; translations: Record<string, unknown> };
    expect(raw).toEqual({
      'fb-locale': 'cs_CZ',
      // fbt's translate step wants fbt's variation masks in `types` (28 number), not the API's 2.
      translations: { [plural.hash]: { tokens: ['number'], types: [28], translations: [{ translation: 'V košíku máte {number} položek', variations: { '0': 24 } }] } },
    });
  });

  it('translations.upload imports an fbt translation file (here: the cs_CZ export) as pending', async () => {
    const c = sdk(get(), get().key);
    const file = await c.translations.raw({ locale: 'cs_CZ' });
    const up = (await c.translations.upload({ translations: JSON.stringify(file), locale: 'sk_SK', contributor: admin })) as { inserted: number; unknown_hashes: string[] };
    expect(up).toEqual({ inserted: 1, unknown_hashes: [] });
    const sk = (await c.translations.query({ query: 'kosiku', locale: 'sk_SK' })) as Array<{ approval_status: string; author: string }>;
    expect(sk).toEqual([expect.objectContaining({ approval_status: 'pending', author: admin })]);

    // A translation file as fbt's tooling writes it: types are fbt's masks (28 number).
    const [plural] = (await c.phrases.query({ query: 'items in the cart' })) as Array<{ hash: string }>;
    const real = {
      'fb-locale': 'pl_PL',
      translations: {
        [plural.hash]: {
          tokens: ['number'],
          types: [28],
          translations: [
            { translation: 'Masz {number} produkty w koszyku', variations: { '0': 20 } },
            { translation: 'Masz {number} produktów w koszyku', variations: { '0': 12 } },
          ],
        },
      },
    };
    expect(await c.translations.upload({ translations: JSON.stringify(real), contributor: admin })).toEqual({ inserted: 2, unknown_hashes: [] });
    const pl = (await c.translations.query({ query: 'koszyku', locale: 'pl_PL' })) as Array<{ tokens: string[]; types: number[]; variations: number[] }>;
    expect(pl.map((t) => [t.tokens, t.types, t.variations])).toEqual([
      [['number'], [2], [20]],
      [['number'], [2], [12]],
    ]);
    const badTypes = await post(get().baseUrl, '/v1/intl/translations/upload', { api_key: get().key, contributor: admin, translations: JSON.stringify({ 'fb-locale': 'pl_PL', translations: { [plural.hash]: { tokens: ['number'], types: [5], translations: [] } } }) });
    expect(errorOf(badTypes)).toMatchObject({ status: 400, type: 'invalid_parameter' });
    expect(JSON.stringify(badTypes.body)).toContain('types[0]: 5 is not an fbt variation type');
  });

  it('administrators bulk-approve a locale; translators may not', async () => {
    const c = sdk(get(), get().key);
    const texts = (await c.phrases.query({ query: 'pay' })) as Array<{ hash: string; text: string }>;
    for (const p of texts) await c.translations.translate({ translation: `${p.text} (de)`, hash: p.hash, locale: 'de_DE', contributor: author });
    const asTranslator = await post(get().baseUrl, '/v1/intl/translations/bulk-approve', { api_key: get().key, locale: 'de_DE', contributor: author });
    expect(errorOf(asTranslator)).toMatchObject({ status: 400, type: 'invalid_parameter', param: 'contributor' });
    const bulk = await post(get().baseUrl, '/v1/intl/translations/bulk-approve', { api_key: get().key, locale: 'de_DE', contributor: admin });
    expect(bulk.body).toEqual({ count: 2 });
    const exported = await post(get().baseUrl, '/v1/intl/translations/export', `api_key=${get().key}&locale=de_DE`);
    expect(Object.keys((exported.body as { translations: object }).translations)).toHaveLength(2);
  });

  it('refuses a non-member, a caller-chosen project, and a key bound to no project', async () => {
    const c = sdk(get(), get().key);
    const [p] = (await c.phrases.query({ query: 'your cart' })) as Array<{ hash: string }>;
    const stranger = await sdkError(c.translations.translate({ translation: 'x', hash: p.hash, locale: 'cs_CZ', contributor: 'who@else.example' }));
    expect([stranger.type, stranger.statusCode, stranger.param]).toEqual(['SwiftyperInvalidParameterError', 400, 'contributor']);
    const injected = await sdkError(c.phrases.query({ project: 'other' }));
    expect([injected.type, injected.param]).toEqual(['SwiftyperUnexpectedParameterError', 'project']);
    const unbound = await sdkError(sdk(get(), get().unboundKey).phrases.query());
    expect([unbound.type, unbound.statusCode, unbound.param]).toEqual(['SwiftyperInvalidRequestError', 400, 'api_key']);
    const badLocale = await sdkError(c.translations.translate({ translation: 'x', hash: p.hash, locale: 'czech', contributor: author }));
    expect([badLocale.type, badLocale.param]).toEqual(['SwiftyperInvalidParameterError', 'locale']);
    const badJson = await sdkError(c.phrases.upload({ native_strings: '[{"hashToText": ' }));
    expect([badJson.type, badJson.param]).toEqual(['SwiftyperInvalidParameterError', 'native_strings']);
  });

  it('reports the intl service in readiness and documents its routes', async () => {
    const ready = (await (await fetch(`${get().baseUrl}/health/ready`)).json()) as { checks: Record<string, { status: string }> };
    expect(ready.checks['intl'].status).toBe('ok');
    const api = (await (await fetch(`${get().baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(api.paths)).toEqual(expect.arrayContaining(['/v1/intl/phrases/upload', '/v1/intl/translation/submit', '/v1/intl/translations/submit', '/v1/intl/translations/raw']));
  });
}

async function keysFor(gateway: NestFastifyApplication): Promise<Pick<IntlUnderTest, 'key' | 'unboundKey' | 'baseUrl' | 'port'>> {
  const keys = gateway.get(ApiKeyService);
  const port = (gateway.getHttpServer().address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    key: (await keys.create({ name: 'shop', project: 'shop' })).key,
    unboundKey: (await keys.create({ name: 'no-project' })).key,
  };
}

/** Standalone composition (gateway + intl on the in-process bus, SQLite), as in apps/standalone. */
describe('intl over HTTP, standalone profile', () => {
  const dir = tempDir();
  let app: NestFastifyApplication;
  const under = {} as IntlUnderTest;

  beforeAll(async () => {
    const config: AppConfig = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error' });
    const bus = new InProcessBus();
    app = await createGatewayApp(config, new InProcessTransportClient(bus, 5000), [IntlModule.forRoot({ config })]);
    app.connectMicroservice({ strategy: new InProcessTransportServer(bus) }, { inheritAppConfig: false });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    Object.assign(under, await keysFor(app), { projects: app.get(ProjectsService) });
  });
  afterAll(async () => {
    await app?.close();
    dir.remove();
  });

  intlSuite(() => under);
});

/** Distributed: gateway -> NATS -> intl app -> PostgreSQL (keys in the same schema). */
describeWith(['postgres', 'nats'], 'intl over HTTP, distributed profile', () => {
  let gateway: NestFastifyApplication;
  let intl: INestApplication;
  let transport: NatsTransportClient;
  let dispose: () => Promise<void>;
  const under = {} as IntlUnderTest;

  beforeAll(async () => {
    const env = await distributedTestEnv('intl_e2e');
    dispose = env.dispose;
    const { config } = env;
    intl = await createServiceApp(IntlServiceModule.forRoot({ config }), config, Services.intl);
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'intl-e2e', timeoutMs: 5000 });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    Object.assign(under, await keysFor(gateway), { projects: intl.get(ProjectsService) });
  });
  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await intl?.close();
    await dispose?.();
  });

  intlSuite(() => under);
});
