import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { createOpenSearchClient } from '@lookup/shared/search';
import { importCatalogue, OpenSearchPlacesStore, sampleSources } from '@lookup/places';
import {
  tempDir,
  between,
  ensureBuilt,
  freePortRange,
  NATS_SERVER_BIN,
  NatsServerProcess,
  OpenSearchNode,
  PG_BIN,
  PostgresCluster,
  statusCounts,
  TrafficGenerator,
  TrafficSample,
} from '@lookup/shared/testing';
import { RunningStack, startStack } from './stack';

const ROOT = resolve(__dirname, '..', '..');
const KEY = 'fault-test-key';
const TRANSPORT_TIMEOUT_MS = 2000;
/** "No hang": every answer within the transport timeout plus slack for a loaded 2-core machine. */
const ANSWER_BOUND_MS = TRANSPORT_TIMEOUT_MS + 2000;
const DOWN_MS = 3000;
const RECOVERY_BOUND_MS = 20000;

const needed = [NATS_SERVER_BIN, `${PG_BIN}/initdb`, resolve(ROOT, 'tools/opensearch/target/opensearch-launcher.jar')];
const missing = needed.filter((p) => !existsSync(p));
const describeFault = missing.length === 0 || process.env['REQUIRE_SERVERS'] === '1' ? describe : describe.skip;
if (missing.length) console.log(`skipped "fault test": missing ${missing.join(', ')}`);

interface Outage {
  part: string;
  downAt: number;
  upAt: number;
  recoveredAt?: number;
}

/**
 * Faults while traffic runs, on servers of the test's own (never the shared ones): NATS
 * restarted, OpenSearch stopped and started, PostgreSQL restarted. The gateway must answer 5xx
 * quickly while a part is down, recover by itself, and count exactly the uses it answered.
 */
describeFault('fault test: the distributed stack under restarts of NATS, OpenSearch and PostgreSQL', () => {
  let nats: NatsServerProcess;
  let pg: PostgresCluster;
  let os: OpenSearchNode;
  let stack: RunningStack | undefined;
  const natsDir = tempDir('lookup-fault-nats-');
  const crashes: string[] = [];
  const outages: Outage[] = [];
  let samples: TrafficSample[] = [];
  let municipalityId = '';

  beforeAll(async () => {
    ensureBuilt(ROOT, ['dist/apps/gateway/src/main.js', 'dist/apps/places/src/main.js', 'dist/tools/stack/stack.js']);
    const base = await freePortRange(6);
    nats = new NatsServerProcess(base, natsDir.path);
    pg = new PostgresCluster(base + 1);
    os = new OpenSearchNode(ROOT, base + 2, base + 3);
    await Promise.all([nats.start(), pg.init().then(() => pg.start()), os.start()]);

    const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: os.url, timeoutMs: 10000 }), 'fault');
    await store.init();
    await importCatalogue(store, sampleSources().CZ, 'sample');
    await store.close();

    const appBase = await freePortRange(2);
    stack = await startStack({
      root: ROOT,
      basePort: appBase,
      env: {
        PATH: process.env['PATH'],
        LOG_LEVEL: 'error',
        SEED_API_KEY: KEY,
        DATABASE_URL: pg.url,
        NATS_URL: nats.url,
        NATS_SUBJECT_PREFIX: 'fault',
        OPENSEARCH_URL: os.url,
        OPENSEARCH_TIMEOUT_MS: '1500',
        INDEX_PREFIX: 'fault',
        TRANSPORT_TIMEOUT_MS: String(TRANSPORT_TIMEOUT_MS),
      },
      readyTimeoutMs: 60000,
      log: () => undefined,
      onUnexpectedExit: (app, code) => crashes.push(`${app} exited (${code})`),
    });
    const list = await fetch(`${stack.gatewayUrl}/v1/places/municipalities`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: KEY, country: 'CZ' }),
    });
    municipalityId = ((await list.json()) as Array<{ place_id: string }>)[0].place_id;
  }, 240000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([nats?.stop(), pg?.remove(), os?.remove()].map((p) => p?.catch(() => undefined)));
    natsDir.remove();
  }, 120000);

  it('answers 5xx quickly while a part is down, recovers by itself, and loses no quota count', async () => {
    const gw = stack!.gatewayUrl;
    const traffic = new TrafficGenerator((i) =>
      i % 2 === 0
        ? { kind: 'detail', url: `${gw}/v1/places/${municipalityId}`, body: { api_key: KEY } }
        : { kind: 'regions', url: `${gw}/v1/places/regions`, body: { api_key: KEY, country: 'CZ' } },
    );
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const recovered = async (o: Outage) => {
      const deadline = Date.now() + RECOVERY_BOUND_MS;
      while (Date.now() < deadline) {
        const ok = traffic.samples.filter((s) => s.at >= o.upAt && s.status === 200 && s.kind === 'detail');
        if (ok.length >= 3) {
          o.recoveredAt = traffic.now();
          return;
        }
        await pause(100);
      }
    };
    const outage = async (part: string, down: () => Promise<void>, up: () => Promise<void>) => {
      const o: Outage = { part, downAt: traffic.now(), upAt: 0 };
      outages.push(o);
      await down();
      await pause(DOWN_MS);
      o.upAt = traffic.now();
      await up();
      await recovered(o);
    };

    traffic.start();
    await pause(1500);
    await outage('nats', () => nats.stop(), () => nats.start());
    await outage('opensearch', () => os.stop(), () => os.start());
    await outage('postgres', () => pg.stop(), () => pg.start());
    const tailFrom = traffic.now();
    await pause(1500);
    samples = await traffic.stop();

    const summary = JSON.stringify({ outages, all: statusCounts(samples) });
    expect(crashes).toEqual([]);
    // The gateway never hung or dropped a connection: an answer every time, within the bound.
    expect(samples.filter((s) => s.status === 0)).toEqual([]);
    const slow = samples.filter((s) => s.ms > ANSWER_BOUND_MS);
    expect(slow.map((s) => `${s.kind} ${s.status} ${s.ms} ms at ${s.at}`)).toEqual([]);
    // A fault is never the caller's error: only 200 or 5xx.
    expect(samples.filter((s) => s.status !== 200 && s.status < 500).map((s) => `${s.status} ${s.errorType}`)).toEqual([]);
    for (const o of outages) {
      // The part was really down (5xx seen) and came back by itself within the bound.
      const during = between(samples, o.downAt + 500, o.upAt);
      expect([o.part, during.some((s) => s.status >= 500)]).toEqual([o.part, true]);
      expect([o.part, o.recoveredAt !== undefined, summary]).toEqual([o.part, true, summary]);
    }
    const tail = between(samples, tailFrom, Infinity);
    expect(tail.length).toBeGreaterThan(10);
    expect(statusCounts(tail)).toEqual({ '200': tail.length });

    // Every counted use was answered and every answered use counted.
    const answeredSearches = samples.filter((s) => s.kind === 'detail' && s.status === 200).length;
    const db = new Client({ connectionString: pg.url, connectionTimeoutMillis: 5000 });
    await db.connect();
    try {
      const rows = await db.query<{ count: number }>(`SELECT count FROM api_key_usage WHERE kind = 'search'`);
      expect(rows.rows.map((r) => Number(r.count))).toEqual([answeredSearches]);
    } finally {
      await db.end();
    }
    console.log(`fault test: ${samples.length} requests, ${answeredSearches} counted searches; ${summary}`);
  }, 180000);
});
