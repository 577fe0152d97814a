/**
 * The places app in a process of its own, as deployed (the distributed profile), and a NATS
 * client to it, once it answers: what the distributed benches put behind the gateway or ask
 * directly. `close()` stops the app and the client.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Subjects } from '../libs/contracts/src';
import { AppConfig, loadConfig } from '../libs/shared/config/src';
import { NatsTransportClient } from '../libs/shared/transport/src';
import { createGatewayApp } from '../libs/gateway/src';
import { createTestSchema } from '../libs/shared/testing/src/postgres';
import { uniqueName } from '../libs/shared/testing/src/tmp';
import { autocompleteQueries, KEY, viaClient } from './search-latency';

export interface PlacesApp {
  process: ChildProcess;
  transport: NatsTransportClient;
  close(): Promise<void>;
}

/**
 * On `config`'s NATS, subject prefix, OpenSearch and index prefix; the app logs errors only.
 * PLACES_APP_CPU_PROF=<dir>: the app writes a V8 CPU profile there when it stops (see cpuprofile-summary.js).
 * PLACES_APP_PORT=<port>: its probes and `/metrics` listen there (default: any free port).
 */
export async function startPlacesApp(config: AppConfig, clientName: string): Promise<PlacesApp> {
  const prof = process.env['PLACES_APP_CPU_PROF'];
  const child = spawn(process.execPath, [...process.execArgv, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), resolve(__dirname, '../apps/places/src/main.ts')], {
    env: { ...process.env, NATS_URL: config.NATS_URL, NATS_SUBJECT_PREFIX: config.NATS_SUBJECT_PREFIX, INDEX_PREFIX: config.INDEX_PREFIX, OPENSEARCH_URL: config.OPENSEARCH_URL, PORT: process.env['PLACES_APP_PORT'] ?? '0', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: clientName, timeoutMs: 5000 });
  const close = async () => {
    child.kill('SIGTERM');
    await transport.close();
  };
  try {
    for (let i = 0; !(await transport.request(Subjects.places.regions, { country: 'CZ' }).then(() => true, () => false)); i++) {
      if (i > 120) throw new Error('the places app did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { process: child, transport, close };
}

/**
 * The distributed stack as the goals bench runs it: the gateway in this process (PostgreSQL for
 * keys and quotas, in a schema of its own), the places app in its own process on the OpenSearch
 * index prefix `indexPrefix`, both on loopback NATS; listening on a free port and warmed up
 * (JIT, connections) with the typed golden queries at 4, 8 and 1 clients. `close()` stops both
 * and drops the schema.
 */
export async function startDistributedServer(indexPrefix: string, logLevel: string): Promise<{ port: number; queries: string[]; close(): Promise<void> }> {
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const pg = await createTestSchema('benchdist');
  const config = loadConfig(process.env, {
    HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: logLevel, SEED_API_KEY: KEY, DEFAULT_MONTHLY_SEARCH_LIMIT: 100_000_000, RATE_LIMIT_PER_SECOND: 0, SAMPLE_DATA: false,
    PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, NATS_SUBJECT_PREFIX: uniqueName('bench'), INDEX_PREFIX: indexPrefix,
  });
  const places = await startPlacesApp(config, 'bench-distributed');
  const app = await createGatewayApp(config, places.transport);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  for (const c of [4, 8, 1]) await viaClient(port, queries, c, 'query');
  return {
    port,
    queries,
    close: async () => {
      await app.close();
      await places.close();
      await pg.drop();
    },
  };
}
