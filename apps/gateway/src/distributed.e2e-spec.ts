import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Services } from '@lookup/contracts';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { createOpenSearchClient } from '@lookup/shared/search';
import { NatsTransportClient } from '@lookup/shared/transport';
import { createServiceApp } from '@lookup/shared/runtime';
import { importCatalogue, OpenSearchPlacesStore, PlacesServiceModule, sampleSources } from '@lookup/places';
import { BusinessServiceModule } from '@lookup/business';
import { IntlServiceModule } from '@lookup/intl';
import { UtilsServiceModule } from '@lookup/utils';
import { describeWith, distributedTestEnv, GatewayUnderTest, gatewayContractSuite } from '@lookup/shared/testing';

/**
 * Distributed profile: gateway -> NATS -> places app -> OpenSearch, keys and quotas on
 * PostgreSQL. Same suite as standalone; unique subject prefix, index prefix and schema.
 */
describeWith(['postgres', 'nats', 'opensearch'], 'distributed profile over HTTP', () => {
  let gateway: NestFastifyApplication;
  let places: INestApplication | undefined;
  const others: INestApplication[] = [];
  let transport: NatsTransportClient;
  let dispose: () => Promise<void>;
  const gw = {} as GatewayUnderTest;

  beforeAll(async () => {
    const env = await distributedTestEnv('gw', { SEED_API_KEY: 'distributed-test-key' });
    dispose = env.dispose;
    const { config } = env;
    const indexPrefix = config.INDEX_PREFIX;
    const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 }), indexPrefix);
    await store.init();
    const samples = sampleSources();
    await importCatalogue(store, samples.CZ, 'sample');
    await importCatalogue(store, samples.SK, 'sample');
    await store.close();

    places = await createServiceApp(PlacesServiceModule.forRoot({ config }), config, Services.places);
    // Readiness pings every service, so the whole distributed set runs here.
    others.push(await createServiceApp(BusinessServiceModule.forRoot({ config }), config, Services.business));
    others.push(await createServiceApp(IntlServiceModule.forRoot({ config }), config, Services.intl));
    others.push(await createServiceApp(UtilsServiceModule.forRoot({ config }), config, Services.utils));
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'gateway-e2e', timeoutMs: 5000 });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    const port = (gateway.getHttpServer().address() as { port: number }).port;
    const keys = gateway.get(ApiKeyService);
    Object.assign(gw, {
      baseUrl: `http://127.0.0.1:${port}`,
      port,
      key: 'distributed-test-key',
      createKey: async (input: Parameters<GatewayUnderTest['createKey']>[0]) => (await keys.create(input)).key,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await places?.close();
    for (const app of others) await app.close();
    await dispose?.();
  });

  gatewayContractSuite(() => gw);

  it('answers 503 quickly when the places service is gone', async () => {
    await places?.close();
    places = undefined;
    const t0 = Date.now();
    const res = await fetch(`${gw.baseUrl}/v1/places/regions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: gw.key, country: 'CZ' }) });
    const body = (await res.json()) as { error: { type: string } };
    expect([res.status, body.error.type]).toEqual([503, 'service_unavailable']);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
