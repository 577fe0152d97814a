// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');
import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { join } from 'node:path';
import { Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { createOpenSearchClient } from '@lookup/shared/search';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer, NatsTransportClient } from '@lookup/shared/transport';
import { createServiceApp } from '@lookup/shared/runtime';
import { describeWith, distributedTestEnv, errorOf, post, tempDir } from '@lookup/shared/testing';
import { BusinessModule, BusinessServiceModule, importBusiness, OpenSearchBusinessStore, SqliteBusinessStore, writeBusinessFixture } from '@lookup/business';

interface BusinessGateway {
  baseUrl: string;
  port: number;
  key: string;
  createKey(input: { name: string; monthlySearchLimit?: number }): Promise<string>;
}

type Sdk = { business: Record<'query' | 'identifier' | 'detail', (...args: unknown[]) => Promise<Array<Record<string, unknown>>>> };
type SdkError = { type: string; rawType: string; statusCode: number; param: string | null };

function sdk(gw: BusinessGateway, key: string): Sdk {
  return new Swiftyper(key, { host: '127.0.0.1', port: gw.port, protocol: 'http' }) as Sdk;
}

async function sdkError(p: Promise<unknown>): Promise<SdkError> {
  try {
    await p;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

const FIELDS = [
  'building_number', 'business_id', 'cin', 'country', 'established_on', 'formatted_address', 'formatted_country', 'formatted_number',
  'formatted_street', 'highlight', 'legal_form', 'municipality', 'name', 'object', 'organization_size', 'postal_code', 'segment',
  'street', 'street_number', 'terminated_on', 'tin', 'vatin',
];

/** The business endpoints through the official Node client; the same suite for both profiles. */
function businessHttpSuite(get: () => BusinessGateway): void {
  it('business.query: by name, with the spec fields, legal-form variants equal', async () => {
    const list = await sdk(get(), get().key).business.query({ query: 'škoda auto a. s.' });
    expect(list[0]).toMatchObject({ business_id: 'cz_00177041', name: 'ŠKODA AUTO a.s.', vatin: 'CZ00177041', terminated_on: null, object: 'business' });
    expect(Object.keys(list[0]).sort()).toEqual(FIELDS);
  });

  it('business.query: active=true (as the widget sends it) leaves out terminated entities; country filters', async () => {
    const all = await sdk(get(), get().key).business.query({ query: 'pekarna lisen' });
    expect(all.map((b) => b['cin'])).toEqual(['60193336', '45193070']);
    const active = await sdk(get(), get().key).business.query({ query: 'pekarna lisen', active: true });
    expect(active.map((b) => b['cin'])).toEqual(['60193336']);
    const sk = await sdk(get(), get().key).business.query({ query: 'tatra trade', country: 'SK' });
    expect(sk.map((b) => b['business_id'])).toEqual(['sk_35741216']);
  });

  it('business.identifier: with or without zeros and spaces, and while typing', async () => {
    for (const query of ['00177041', '177041', '001 77 041', '00177']) {
      const [first] = await sdk(get(), get().key).business.identifier({ query, limit: '3' });
      expect([query, first?.['business_id']]).toEqual([query, 'cz_00177041']);
    }
  });

  it('business.detail: an array of one; an unknown id is a 404 the client names', async () => {
    const one = await sdk(get(), get().key).business.detail('sk_31322832', {});
    expect(one.map((b) => b['name'])).toEqual(['Slovnaft, a.s.']);
    // Ours unknown, and the PHP SDK README's own example id (the hosted service's shape: mixed case).
    for (const id of ['cz_99999999', 'sk_WbilvhDEDokFTWk0FbNjeQ']) {
      const err = await sdkError(sdk(get(), get().key).business.detail(id, {}));
      expect([id, err.statusCode, err.rawType, err.param]).toEqual([id, 404, 'invalid_request', 'business_id']);
    }
  });

  it('bad input is a 400 naming the parameter', async () => {
    const missing = await sdkError(sdk(get(), get().key).business.query({}));
    expect([missing.type, missing.statusCode, missing.param]).toEqual(['SwiftyperMissingParameterError', 400, 'query']);
    const limit = await sdkError(sdk(get(), get().key).business.query({ query: 'a', limit: '21' }));
    expect([limit.type, limit.param]).toEqual(['SwiftyperInvalidParameterError', 'limit']);
    const active = await sdkError(sdk(get(), get().key).business.query({ query: 'a', active: 'maybe' }));
    expect([active.type, active.param]).toEqual(['SwiftyperInvalidParameterError', 'active']);
    const ico = await sdkError(sdk(get(), get().key).business.identifier({ query: 'ABC' }));
    expect([ico.type, ico.param]).toEqual(['SwiftyperInvalidParameterError', 'query']);
    const id = await sdkError(sdk(get(), get().key).business.detail('xx_1', {}));
    expect([id.type, id.param]).toEqual(['SwiftyperInvalidParameterError', 'business_id']);
    const extra = await sdkError(sdk(get(), get().key).business.query({ query: 'a', foo: '1' }));
    expect([extra.type, extra.param]).toEqual(['SwiftyperUnexpectedParameterError', 'foo']);
  });

  it('form bodies as the widget sends them, HTML-escaped highlight', async () => {
    const res = await post<Array<Record<string, string>>>(get().baseUrl, '/v1/business/query', `api_key=${get().key}&__req=1&query=bata%20%26%20syn&active=1&country[0]=CZ`);
    expect(res.status).toBe(200);
    expect(res.body[0]['highlight']).toBe('<em>Baťa</em> &amp; <em>syn</em>, s.r.o.');
  });

  it('business searches count against the monthly search limit', async () => {
    const key = await get().createKey({ name: 'two-searches', monthlySearchLimit: 2 });
    await sdk(get(), key).business.query({ query: 'skoda' });
    await sdk(get(), key).business.identifier({ query: '177041' });
    // A refused request is not counted.
    const refused = await post(get().baseUrl, '/v1/business/not-an-id', { api_key: key });
    expect(errorOf(refused)).toMatchObject({ status: 400, type: 'invalid_parameter', param: 'business_id' });
    const err = await sdkError(sdk(get(), key).business.query({ query: 'skoda' }));
    expect([err.type, err.rawType, err.statusCode]).toEqual(['SwiftyperQuotaError', 'over_query_limit', 400]);
  });
}

/** Standalone composition: gateway -> in-process bus -> business handlers -> SQLite. */
describe('business over HTTP, standalone (SQLite)', () => {
  const dir = tempDir('business-e2e-');
  let app: NestFastifyApplication;
  const gw = {} as BusinessGateway;

  beforeAll(async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: 'business-standalone-key', SAMPLE_DATA: 'false' });
    const store = new SqliteBusinessStore(join(dir.path, 'business.sqlite'));
    await store.init();
    await importBusiness(store, writeBusinessFixture(dir.path).sources, 'fixture');
    const bus = new InProcessBus();
    app = await createGatewayApp(config, new InProcessTransportClient(bus, config.TRANSPORT_TIMEOUT_MS), [BusinessModule.forRoot({ config, store })]);
    app.connectMicroservice({ strategy: new InProcessTransportServer(bus) }, { inheritAppConfig: false });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const keys = app.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'business-standalone-key', createKey: async (i: { name: string }) => (await keys.create(i)).key });
  });

  afterAll(async () => {
    await app?.close();
    dir.remove();
  });

  businessHttpSuite(() => gw);
});

/** Distributed: gateway -> NATS -> business app -> OpenSearch; keys and quotas on PostgreSQL. */
describeWith(['postgres', 'nats', 'opensearch'], 'business over HTTP, distributed (OpenSearch)', () => {
  const dir = tempDir('business-e2e-dist-');
  let gateway: NestFastifyApplication;
  let business: INestApplication;
  let transport: NatsTransportClient;
  let dispose: () => Promise<void>;
  const gw = {} as BusinessGateway;

  beforeAll(async () => {
    const env = await distributedTestEnv('bizgw', { SEED_API_KEY: 'business-distributed-key' });
    dispose = env.dispose;
    const { config } = env;
    const store = new OpenSearchBusinessStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 }), config.INDEX_PREFIX);
    await store.init();
    await importBusiness(store, writeBusinessFixture(dir.path).sources, 'fixture');
    await store.close();
    business = await createServiceApp(BusinessServiceModule.forRoot({ config }), config, Services.business);
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'business-e2e', timeoutMs: 5000 });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    const port = (gateway.getHttpServer().address() as { port: number }).port;
    const keys = gateway.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'business-distributed-key', createKey: async (i: { name: string }) => (await keys.create(i)).key });
  });

  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await business?.close();
    await dispose?.();
    dir.remove();
  });

  businessHttpSuite(() => gw);

  it('the business app answers its health subject with its engine', async () => {
    expect(await transport.request('business.health', {}, { timeoutMs: 2000 })).toEqual({ status: 'ok', engine: 'opensearch' });
  });
});
