/**
 * Autocomplete latency, p50/p95/p99 at concurrency 1 and 32, through the gateway over HTTP and
 * straight at the engine (PlacesSearchService in this process, no HTTP, no transport) in the
 * same run, so the gateway (+ NATS) overhead shows as a ratio and as added milliseconds.
 *   node -r ./bench/search-ts-register.js bench/search-latency.ts sqlite <dir holding places.sqlite>
 *   node -r ./bench/search-ts-register.js bench/search-latency.ts opensearch <index-prefix>
 * sqlite: the standalone app (in-process bus); opensearch: gateway -> NATS -> places service,
 * all three in this one process (PostgreSQL for keys, NATS and OpenSearch on 127.0.0.1).
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { Services } from '../libs/contracts/src';
import { loadConfig } from '../libs/shared/config/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { NatsTransportClient } from '../libs/shared/transport/src';
import { createServiceApp } from '../libs/shared/runtime/src';
import { createGatewayApp } from '../libs/gateway/src';
import { createTestSchema } from '../libs/shared/testing/src/postgres';
import { uniqueName } from '../libs/shared/testing/src/tmp';
import { createStandaloneApp } from '../apps/standalone/src/standalone';
import { PlacesServiceModule } from '../libs/places/src/places-service.module';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { loadGolden } from '../libs/places/src/search/testing/golden-queries';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';

const KEY = 'bench-search-key';

/** What a typing user sends: every golden query cut after 3 letters, after each word, and whole. */
function autocompleteQueries(file: string): string[] {
  const out: string[] = [];
  for (const q of loadGolden(file)) {
    const text = q.params['query'];
    if (!text) continue;
    out.push(text.slice(0, 3));
    for (let i = 4; i < text.length; i++) if (text[i] === ' ') out.push(text.slice(0, i));
    out.push(text.slice(0, Math.max(4, text.length - 2)), text);
  }
  return out;
}

function percentiles(ms: number[]): { p50: number; p95: number; p99: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))] * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}

async function run(queries: string[], concurrency: number, one: (q: string) => Promise<unknown>): Promise<ReturnType<typeof percentiles>> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const q = queries[next++];
      const t0 = process.hrtime.bigint();
      await one(q);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return percentiles(times);
}

async function main(): Promise<void> {
  const [engine, target, file] = process.argv.slice(2, 5);
  const queries = autocompleteQueries(resolve(file ?? '../shared/data/queries/cz-addresses.jsonl'));
  let app: INestApplication;
  let store: PlacesStore;
  const cleanup: Array<() => Promise<unknown>> = [];
  const base = { HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: KEY, DEFAULT_MONTHLY_SEARCH_LIMIT: 100_000_000, SAMPLE_DATA: false };
  if (engine === 'sqlite') {
    const config = loadConfig({}, { ...base, PROFILE: 'standalone', DATA_DIR: resolve(target) });
    app = await createStandaloneApp(config);
    store = new SqlitePlacesStore(resolve(target, 'places.sqlite'));
  } else {
    const pg = await createTestSchema('benchsearch');
    cleanup.push(pg.drop);
    const config = loadConfig(process.env, {
      ...base, PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, NATS_SUBJECT_PREFIX: uniqueName('bench'), INDEX_PREFIX: target,
    });
    const service = await createServiceApp(PlacesServiceModule.forRoot({ config }), { ...config, PORT: 0 } as typeof config, Services.places);
    cleanup.push(() => service.close());
    const transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'bench-gateway', timeoutMs: 5000 });
    cleanup.push(() => transport.close());
    app = await createGatewayApp(config, transport);
    store = new OpenSearchPlacesStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 }), target);
  }
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  await store.init();
  const direct = new PlacesSearchService(store);
  const viaGateway = async (query: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/places/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: KEY, query, country: 'CZ' }).toString(),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const straight = (query: string) => direct.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  await run(queries.slice(0, 200), 4, viaGateway); // warm-up: caches, JIT, connections
  await run(queries.slice(0, 200), 4, straight);
  const results: Record<string, unknown> = { engine, queries: queries.length };
  for (const c of [1, 32]) {
    const g = await run(queries, c, viaGateway);
    const d = await run(queries, c, straight);
    results[`c${c}`] = { gateway: g, engine: d, ratioP50: Math.round((g.p50 / d.p50) * 100) / 100, addedP50ms: Math.round((g.p50 - d.p50) * 100) / 100 };
  }
  console.log(JSON.stringify(results, null, 1));
  await app.close();
  await store.close();
  for (const c of cleanup.reverse()) await c();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
