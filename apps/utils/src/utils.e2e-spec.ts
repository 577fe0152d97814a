// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');
import { request } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Services } from '@lookup/contracts';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer, NatsTransportClient } from '@lookup/shared/transport';
import { createServiceApp } from '@lookup/shared/runtime';
import { createTestSchema, describeWith, errorOf, post, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { FakeDns, fakeDns, FakeProvider, fakeLibreTranslate, FakeVies, fakeVies, reverseName, UtilsModule, UtilsServiceModule } from '@lookup/utils';

type Sdk = Record<'translator' | 'ipUtil' | 'viesUtil', Record<string, (...args: unknown[]) => Promise<Record<string, unknown>>>>;
type SdkError = { type: string; rawType: string; statusCode: number; param: string | null; headers: Record<string, string> };

interface UtilsUnderTest {
  baseUrl: string;
  port: number;
  key: string;
  createKey(input: { name: string; monthlyQueryLimit?: number }): Promise<string>;
}

const PROVIDER_KEY = 'libre-key';

/** The outside services, on loopback: a LibreTranslate instance, VIES, a DNS server answering PTR. */
class Outside {
  translator!: FakeProvider;
  vies!: FakeVies;
  dns!: FakeDns;
  async start(): Promise<void> {
    this.translator = await fakeLibreTranslate(PROVIDER_KEY);
    this.vies = await fakeVies();
    this.dns = await fakeDns({ [reverseName('147.32.1.1')]: 'www.cvut.cz' });
  }
  config(over: Partial<Record<keyof AppConfig, unknown>>): AppConfig {
    return loadConfig({}, {
      HOST: '127.0.0.1',
      PORT: 0,
      LOG_LEVEL: 'error',
      TRANSLATOR_PROVIDER: 'libretranslate',
      TRANSLATOR_URL: this.translator.url,
      TRANSLATOR_API_KEY: PROVIDER_KEY,
      VIES_URL: this.vies.url,
      VIES_RETRY_BASE_MS: 10,
      IP_DNS_SERVERS: this.dns.address,
      // Generous on a shared, busy test machine; the timeouts themselves are tested in the libs.
      IP_DNS_TIMEOUT_MS: 3000,
      TRANSPORT_TIMEOUT_MS: 15000,
      ...over,
    });
  }
  async stop(): Promise<void> {
    await Promise.all([this.translator?.close(), this.vies?.close(), this.dns?.close()]);
  }
}

function sdk(gw: UtilsUnderTest, key: string): Sdk {
  return new Swiftyper(key, { host: '127.0.0.1', port: gw.port, protocol: 'http' }) as Sdk;
}

/** A GET with a JSON body, as the Node SDK sends it (fetch refuses to). */
function getWithBody(port: number, path: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }, timeout: 10000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(data);
  });
}

async function sdkError(p: Promise<unknown>): Promise<SdkError> {
  try {
    await p;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

/** What both profiles must show, through the official Node client. */
function utilsSuite(get: () => UtilsUnderTest, outside: Outside): void {
  it('translator.translate: q, sl, tl through the configured provider', async () => {
    const r = await sdk(get(), get().key).translator.translate({ q: 'Dobrý den', sl: 'cs', tl: 'en' });
    expect(r).toEqual({ translation: 'Good afternoon' });
    const e = await sdkError(sdk(get(), get().key).translator.translate({ q: 'x', sl: 'cs', tl: 'xx' }));
    expect([e.type, e.rawType, e.statusCode, e.param]).toEqual(['SwiftyperInvalidParameterError', 'invalid_parameter', 400, 'tl']);
  });

  it('ipUtil.info: a GET with the key in a JSON body', async () => {
    const r = await sdk(get(), get().key).ipUtil.info('147.32.1.1');
    expect(r).toMatchObject({ ip: '147.32.1.1', hostname: 'www.cvut.cz', country_code: 'CZ', org: 'AS2852 CESNET z.s.p.o.', timezone: 'Europe/Prague' });
    const reserved = await sdk(get(), get().key).ipUtil.info('192.168.1.10');
    expect(reserved).toMatchObject({ ip: '192.168.1.10', bogon: true, reserved_range: 'private', country_code: null });
    const bad = await sdkError(sdk(get(), get().key).ipUtil.info('300.1.1.1'));
    expect([bad.rawType, bad.statusCode, bad.param]).toEqual(['invalid_parameter', 400, 'ip_address']);
  });

  it('the IP route also takes the key from the query string or the header, and refuses a GET without one', async () => {
    const q = await fetch(`${get().baseUrl}/v1/utils/ip/147.32.1.1?api_key=${get().key}`);
    expect(q.status).toBe(200);
    const h = await fetch(`${get().baseUrl}/v1/utils/ip/147.32.1.1`, { headers: { 'X-Swiftyper-Api-Key': get().key } });
    expect(((await h.json()) as { country_code: string }).country_code).toBe('CZ');
    const none = await getWithBody(get().port, '/v1/utils/ip/147.32.1.1', { __req: 1 });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: { type: 'missing', param: 'api_key' } });
    const bodyKey = await getWithBody(get().port, '/v1/utils/ip/2001:4860:4860::8888', { __req: 2, api_key: get().key });
    expect(bodyKey.status).toBe(200);
    expect(bodyKey.body).toMatchObject({ ip: '2001:4860:4860::8888', org: 'AS15169 Google LLC' });
  });

  it('viesUtil.checkVatNumber: countryCode and vatNumber, the spec fields with object vies', async () => {
    const r = await sdk(get(), get().key).viesUtil.checkVatNumber({ countryCode: 'CZ', vatNumber: '25123891' });
    expect(r).toMatchObject({ countryCode: 'CZ', vatNumber: '25123891', valid: true, name: 'ABC s.r.o.', object: 'vies', traderNameMatch: 'NOT_PROCESSED' });
    const bad = await sdkError(sdk(get(), get().key).viesUtil.checkVatNumber({ countryCode: 'CZ', vatNumber: '25123890' }));
    expect([bad.rawType, bad.param]).toEqual(['invalid_parameter', 'vatNumber']);
    outside.vies.always = { kind: 'userError', code: 'MS_UNAVAILABLE' };
    try {
      // The SDK has no class for server faults other than 500: it reports them as GenericError.
      const down = await sdkError(sdk(get(), get().key).viesUtil.checkVatNumber({ countryCode: 'PL', vatNumber: '8567346215' }));
      expect(down.type).toBe('GenericError');
      const raw = await post(get().baseUrl, '/v1/utils/vies/check-vat-number', { api_key: get().key, countryCode: 'PL', vatNumber: '8567346215' });
      expect(errorOf(raw)).toMatchObject({ status: 503, type: 'service_unavailable', param: null });
      expect((raw.body as { error: { message: string } }).error.message).toMatch(/could not be checked now.*MS_UNAVAILABLE/);
      expect(raw.body).not.toHaveProperty('valid');
    } finally {
      outside.vies.always = undefined;
    }
  });

  it('utility calls count against the monthly query limit; refused parameters and our faults do not', async () => {
    const key = await get().createKey({ name: 'three-queries', monthlyQueryLimit: 3 });
    const client = sdk(get(), key);
    await sdkError(client.translator.translate({ q: 'x', tl: '' }));
    outside.vies.always = { kind: 'userError', code: 'MS_UNAVAILABLE' };
    try {
      await sdkError(client.viesUtil.checkVatNumber({ countryCode: 'PL', vatNumber: '8567346215' }));
    } finally {
      outside.vies.always = undefined;
    }
    await client.translator.translate({ q: 'dog', sl: 'en', tl: 'de' });
    await client.ipUtil.info('147.32.1.1');
    await client.viesUtil.checkVatNumber({ countryCode: 'CZ', vatNumber: '25123891' });
    const over = await sdkError(client.translator.translate({ q: 'dog', sl: 'en', tl: 'de' }));
    expect([over.rawType, over.statusCode]).toEqual(['over_query_limit', 400]);
    expect(over.headers['retry-after']).toBeDefined();
  });
}

/** Gateway + in-process bus + the utils module: the standalone profile's composition. */
describe('utils in the standalone profile (gateway and utils in one process, SQLite keys)', () => {
  const outside = new Outside();
  const dir = tempDir();
  let app: NestFastifyApplication;
  const gw = {} as UtilsUnderTest;

  beforeAll(async () => {
    await outside.start();
    const config = outside.config({ PROFILE: 'standalone', DATA_DIR: dir.path, SEED_API_KEY: 'utils-standalone-key' });
    const bus = new InProcessBus();
    app = await createGatewayApp(config, new InProcessTransportClient(bus, config.TRANSPORT_TIMEOUT_MS), [UtilsModule.forRoot({ config })]);
    app.connectMicroservice({ strategy: new InProcessTransportServer(bus) }, { inheritAppConfig: false });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const keys = app.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'utils-standalone-key', createKey: async (i: { name: string }) => (await keys.create(i)).key });
  });

  afterAll(async () => {
    await app?.close();
    await outside.stop();
    dir.remove();
  });

  utilsSuite(() => gw, outside);

  it('describes the three routes in the OpenAPI document', async () => {
    const api = (await (await fetch(`${gw.baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(api.paths['/v1/utils/ip/{ip_address}'])).toContain('get');
    expect(Object.keys(api.paths['/v1/utils/translator/translate'])).toContain('post');
    expect(Object.keys(api.paths['/v1/utils/vies/check-vat-number'])).toContain('post');
  });
});

/** Gateway -> NATS -> the utils app (queue group utils), keys and quotas on PostgreSQL. */
describeWith(['postgres', 'nats'], 'utils in the distributed profile (gateway -> NATS -> utils app)', () => {
  const outside = new Outside();
  let gateway: NestFastifyApplication;
  let utils: INestApplication | undefined;
  let transport: NatsTransportClient;
  let dropSchema: () => Promise<void>;
  const gw = {} as UtilsUnderTest;

  beforeAll(async () => {
    await outside.start();
    const pg = await createTestSchema('utils');
    dropSchema = pg.drop;
    const config = outside.config({
      PROFILE: 'distributed',
      SEED_API_KEY: 'utils-distributed-key',
      DATABASE_URL: pg.url,
      DATABASE_SCHEMA: pg.schema,
      NATS_URL: serverUrl('nats'),
      NATS_SUBJECT_PREFIX: uniqueName('utils'),
    });
    utils = await createServiceApp(UtilsServiceModule.forRoot({ config }), config, Services.utils);
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'utils-e2e', timeoutMs: config.TRANSPORT_TIMEOUT_MS });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    const port = (gateway.getHttpServer().address() as { port: number }).port;
    const keys = gateway.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'utils-distributed-key', createKey: async (i: { name: string }) => (await keys.create(i)).key });
  });

  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await utils?.close();
    await outside.stop();
    await dropSchema?.();
  });

  utilsSuite(() => gw, outside);

  it('the utils app answers the gateway readiness ping (utils.health)', async () => {
    const ready = (await (await fetch(`${gw.baseUrl}/health/ready`)).json()) as { checks: Record<string, { status: string }> };
    expect(ready.checks['utils'].status).toBe('ok');
  });
});
