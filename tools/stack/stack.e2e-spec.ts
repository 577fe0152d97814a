import { resolve } from 'node:path';
import { createOpenSearchClient } from '@lookup/shared/search';
import { importCatalogue, OpenSearchPlacesStore, sampleSources } from '@lookup/places';
import { createTestSchema, describeWith, ensureBuilt, freePortRange, post, serverUrl, uniqueName } from '@lookup/shared/testing';
import { RunningStack, startStack } from './stack';
import { SERVICE_APPS } from './stack.apps';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

const ROOT = resolve(__dirname, '..', '..');
const KEY = 'stack-e2e-key';

/** The value of one sample of the Prometheus text format whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(name + '{') && want.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * The distributed stack as the runner starts it: every app its own Node process from dist/
 * (gateway -> NATS -> places, business, ... -> OpenSearch / PostgreSQL), driven over HTTP with
 * the official Node client. Unique subject prefix, index prefix and schema.
 */
describeWith(['postgres', 'nats', 'opensearch'], 'distributed stack as separate processes', () => {
  let stack: RunningStack | undefined;
  let dropSchema: () => Promise<void>;
  const indexPrefix = uniqueName('stack');
  const logs: string[] = [];

  beforeAll(async () => {
    ensureBuilt(ROOT, ['dist/apps/gateway/src/main.js', 'dist/apps/places/src/main.js', 'dist/tools/stack/stack.js']);
    const pg = await createTestSchema('stack');
    dropSchema = pg.drop;
    const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 }), indexPrefix);
    await store.init();
    const samples = sampleSources();
    await importCatalogue(store, samples.CZ, 'sample');
    await store.close();
    const basePort = await freePortRange(SERVICE_APPS.length + 1);
    stack = await startStack({
      root: ROOT,
      basePort,
      env: {
        PATH: process.env['PATH'],
        LOG_LEVEL: 'warn',
        SEED_API_KEY: KEY,
        DATABASE_URL: pg.url,
        DATABASE_SCHEMA: pg.schema,
        NATS_URL: serverUrl('nats'),
        NATS_SUBJECT_PREFIX: uniqueName('stack'),
        OPENSEARCH_URL: serverUrl('opensearch'),
        INDEX_PREFIX: indexPrefix,
      },
      readyTimeoutMs: 60000,
      log: (app, line) => logs.push(`[${app}] ${line}`),
    });
  }, 300000);

  afterAll(async () => {
    await stack?.stop();
    const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
    await client.indices.delete({ index: `${indexPrefix}-*` }).catch(() => undefined);
    await client.close();
    await dropSchema?.();
  }, 60000);

  it('runs every built app as its own process, each ready on its own port', async () => {
    const s = stack!;
    const pids = s.apps.map((a) => a.pid);
    expect(s.apps.map((a) => a.app.name)).toEqual(expect.arrayContaining(['places', 'gateway']));
    expect(new Set(pids).size).toBe(s.apps.length);
    expect(pids).not.toContain(process.pid);
    for (const a of s.apps) {
      const res = await fetch(`${a.url}/health/ready`, { signal: AbortSignal.timeout(5000) });
      expect([a.app.name, res.status]).toEqual([a.app.name, 200]);
    }
  });

  it('answers the official Node client through gateway -> NATS -> places -> OpenSearch', async () => {
    const port = Number(new URL(stack!.gatewayUrl).port);
    const client = new Swiftyper(KEY, { host: '127.0.0.1', port, protocol: 'http' });
    const regions = (await client.places.regions({ country: 'CZ' })) as Array<{ object: string; place_id: string }>;
    expect(regions.length).toBeGreaterThanOrEqual(2);
    expect(regions.every((r) => r.object === 'region' && r.place_id.startsWith('cz_'))).toBe(true);
    const municipalities = (await client.places.municipalities({ country: 'CZ' })) as Array<{ place_id: string }>;
    const detail = (await client.places.detail(municipalities[0].place_id)) as { place_id: string };
    expect(detail.place_id).toBe(municipalities[0].place_id);
    const bad = await post(stack!.gatewayUrl, '/v1/places/regions', { api_key: KEY, country: 'XX' });
    expect(bad.status).toBe(400);
  });

  it('exports Prometheus metrics on the gateway and on every service app', async () => {
    const gw = await (await fetch(`${stack!.gatewayUrl}/metrics`)).text();
    expect(sample(gw, 'lookup_http_requests_total', { route: '/v1/places/regions', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(gw, 'lookup_http_errors_total', { route: '/v1/places/regions', status: '400', type: 'invalid_parameter' })).toBeGreaterThanOrEqual(1);
    expect(sample(gw, 'lookup_http_request_duration_seconds_count', { route: '/v1/places/regions' })).toBeGreaterThanOrEqual(2);
    expect(sample(gw, 'lookup_transport_requests_total', { subject: 'places.catalogue.regions', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    const places = await (await fetch(`${stack!.app('places').url}/metrics`)).text();
    expect(sample(places, 'lookup_rpc_handled_total', { subject: 'places.catalogue.regions', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(places, 'lookup_rpc_handled_total', { subject: 'places.detail', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    for (const a of stack!.apps) {
      const res = await fetch(`${a.url}/metrics`);
      expect([a.app.name, res.status, res.headers.get('content-type')?.startsWith('text/plain')]).toEqual([a.app.name, 200, true]);
      expect(await res.text()).toContain('lookup_process_resident_memory_bytes');
    }
  });

  it('finishes a request in flight when the gateway gets SIGTERM, then stops every app without SIGKILL', async () => {
    const s = stack!;
    // Freeze places so a request is provably in flight (waiting on NATS) when SIGTERM arrives.
    const placesPid = s.app('places').pid!;
    process.kill(placesPid, 'SIGSTOP');
    const inFlight = post(s.gatewayUrl, '/v1/places/regions', { api_key: KEY, country: 'CZ' });
    await new Promise((r) => setTimeout(r, 300));
    const gatewayExit = s.app('gateway').stop(15000);
    await new Promise((r) => setTimeout(r, 700));
    process.kill(placesPid, 'SIGCONT');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect((answer.body as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect((await gatewayExit).forced).toBe(false);
    const exits = await s.stop();
    stack = undefined;
    for (const [app, exit] of Object.entries(exits)) {
      expect([app, exit.forced, exit.code === 0 || exit.signal === 'SIGTERM']).toEqual([app, false, true]);
    }
    await expect(fetch(`${s.gatewayUrl}/health`)).rejects.toThrow();
  });
});
