import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Services } from '@lookup/contracts';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { createOpenSearchClient } from '@lookup/shared/search';
import { NatsTransportClient } from '@lookup/shared/transport';
import { createServiceApp } from '@lookup/shared/runtime';
import { importCatalogue, importRuianAddresses, OpenSearchPlacesStore, PlacesServiceModule, sampleAddressSources, sampleSources } from '@lookup/places';
import { describeWith, distributedTestEnv, GatewayUnderTest, placesSearchHttpSuite, placesValidateHttpSuite } from '@lookup/shared/testing';

/** Distributed: gateway -> NATS -> places app -> OpenSearch, the same place-search and places.validate suites as standalone. */
describeWith(['postgres', 'nats', 'opensearch'], 'distributed place searches over HTTP', () => {
  let gateway: NestFastifyApplication;
  let places: INestApplication | undefined;
  let transport: NatsTransportClient;
  let dispose: () => Promise<void>;
  const gw = {} as GatewayUnderTest;

  beforeAll(async () => {
    const env = await distributedTestEnv('gwsearch', { SEED_API_KEY: 'distributed-search-key' });
    dispose = env.dispose;
    const { config } = env;
    const indexPrefix = config.INDEX_PREFIX;
    const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 }), indexPrefix);
    await store.init();
    const samples = sampleSources();
    await importCatalogue(store, samples.CZ, 'sample');
    await importCatalogue(store, samples.SK, 'sample');
    await importRuianAddresses(store, sampleAddressSources(), 'sample');
    await store.close();

    places = await createServiceApp(PlacesServiceModule.forRoot({ config }), config, Services.places);
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'gateway-search-e2e', timeoutMs: 5000 });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    const port = (gateway.getHttpServer().address() as { port: number }).port;
    const keys = gateway.get(ApiKeyService);
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'distributed-search-key', createKey: async (input: Parameters<GatewayUnderTest['createKey']>[0]) => (await keys.create(input)).key });
  });

  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await places?.close();
    await dispose?.();
  });

  placesSearchHttpSuite(() => gw);
  placesValidateHttpSuite(() => gw);
});
