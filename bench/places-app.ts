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
import type { INestApplication } from '@nestjs/common';

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
 * The distributed stack as the benches run it: the gateway app in this process (PostgreSQL for
 * keys and quotas, in a schema of its own), the places app in a process of its own on the
 * OpenSearch index prefix `indexPrefix`, both on loopback NATS; `settings` are the gateway's
 * (key, limits, log level). The caller listens and closes the gateway; `release()` stops the
 * places app and drops the schema after that.
 */
export async function startDistributedGateway(indexPrefix: string, settings: Record<string, unknown>): Promise<{ app: INestApplication; places: PlacesApp; config: AppConfig; release(): Promise<void> }> {
  const pg = await createTestSchema('benchdist');
  const config = loadConfig(process.env, {
    ...settings, PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, NATS_SUBJECT_PREFIX: uniqueName('bench'), INDEX_PREFIX: indexPrefix,
  });
  // The places service in a process of its own, as deployed: sharing this process's event loop
  // with the gateway would add the service's search work to every gateway hop.
  const places = await startPlacesApp(config, 'bench-gateway');
  const release = async () => {
    await places.close();
    await pg.drop();
  };
  try {
    return { app: await createGatewayApp(config, places.transport), places, config, release };
  } catch (err) {
    await release();
    throw err;
  }
}
