/**
 * The distributed path without the gateway, at concurrency 1, interleaved query by query (which
 * part goes first rotating, so none always finds OpenSearch warm from the one before): the
 * places app in a process of its own asked over NATS (what the gateway does after its own work),
 * the same search in this process (the engine: PlacesSearchService on OpenSearch), and a bare
 * NATS request to an echo responder in another process (the floor of one round trip through
 * nats-server). What NATS and the places app add = over NATS - engine; of that, the round trip's
 * share is the echo.
 *   node -r ./tools/ts-register.js bench/distributed-parts.ts <index-prefix>
 * NATS_URL and OPENSEARCH_URL as the apps take them (defaults: loopback).
 */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRequest, PlaceQueryRequest, Subjects } from '../libs/contracts/src';
import { loadConfig } from '../libs/shared/config/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { startPlacesApp } from './places-app';
import { autocompleteQueries, percentiles } from './search-latency';

/** A process answering `<prefix>.echo` with what it was sent (nats.js, no Nest). */
const ECHO = `
const { connect } = require('nats');
connect({ servers: process.env.NATS_URL }).then((nc) => {
  nc.subscribe(process.env.SUBJECT, { callback: (err, m) => m.respond(m.data) });
  nc.flush().then(() => process.stdout.write('ready\\n'));
});`;

function started(child: ChildProcess): Promise<void> {
  return new Promise((ok, fail) => {
    child.stdout?.once('data', () => ok());
    child.once('exit', (code) => fail(new Error(`echo exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) throw new Error('usage: distributed-parts.ts <index-prefix>');
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const prefix = `parts${Date.now()}`;
  const config = loadConfig(process.env, { PROFILE: 'distributed', NATS_SUBJECT_PREFIX: prefix, INDEX_PREFIX: target });
  const echo = spawn(process.execPath, ['-e', ECHO], { env: { ...process.env, NATS_URL: config.NATS_URL, SUBJECT: `${prefix}.echo` }, stdio: ['ignore', 'pipe', 'inherit'] });
  const places = await startPlacesApp(config, 'bench-parts');
  const transport = places.transport;
  const store = new OpenSearchPlacesStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 }), target);
  try {
    await started(echo);
    const payload = new TextEncoder().encode(JSON.stringify({ query: queries[0], country: 'CZ' }));
    const engine = new PlacesSearchService(store);
    const parts = {
      'over NATS (places app)': (q: string) => transport.request(Subjects.places.query, { query: q, country: 'CZ' }),
      'engine in this process': (q: string) => engine.query(parseRequest(PlaceQueryRequest, { query: q, country: 'CZ' })),
      'NATS echo (floor)': () => transport.connection.request(`${prefix}.echo`, payload, { timeout: 5000 }),
    };
    for (const q of queries.slice(0, 300)) for (const f of Object.values(parts)) await f(q);
    for (let round = 1; round <= 2; round++) {
      const ms: Record<string, number[]> = {};
      const entries = Object.entries(parts);
      for (const [i, q] of queries.entries()) {
        // The part that goes first changes from query to query: the next search for the same
        // text finds OpenSearch's caches warm, and a fixed order gave that to the engine every time.
        for (let k = 0; k < entries.length; k++) {
          const [name, f] = entries[(i + k) % entries.length];
          const t0 = performance.now();
          await f(q);
          (ms[name] ??= []).push(performance.now() - t0);
        }
      }
      const p = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, percentiles(v)]));
      const added = Math.round((p['over NATS (places app)'].p50 - p['engine in this process'].p50) * 100) / 100;
      console.log(`round ${round}: ${Object.entries(p).map(([k, v]) => `${k} p50 ${v.p50} p95 ${v.p95}`).join(' | ')} | added over the engine at p50 ${added} ms`);
    }
  } finally {
    echo.kill('SIGTERM');
    const exited = new Promise((r) => places.process.once('exit', r));
    await places.close();
    await store.close();
    await exited;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
