/**
 * A CPU profile of the standalone gateway's main thread under load: the app on the bundled
 * sample (a fresh data dir, imported at start), the HTTP client in a process of its own
 * (keep-alive, bench/search-latency.ts's client) sending the typed golden queries at
 * concurrency 8, the V8 sampling profiler on for that phase only. Writes the `.cpuprofile`
 * (open it in Chrome DevTools or speedscope) and prints bench/cpuprofile-summary.js's table.
 *   node -r ./tools/ts-register.js bench/gateway-profile.ts [out.cpuprofile] [rounds]
 * LOG_LEVEL (default info, what the app runs with; the log goes to /dev/null) and
 * SEARCH_THREADS and SEARCH_INLINE_BELOW_MS are taken from the environment; PROFILE_TARGET (query,
 * regions or health) picks the route (default query), PROFILE_CONCURRENCY the client's
 * concurrency (default 8), PROFILE_DATA_DIR an imported data dir to serve instead of the sample,
 * PROFILE_CLIENT=wrk sends the load with wrk (5 s per round; its own CPU is a tenth of the node
 * client's, so the server's main thread is what limits: the case of a client on another machine).
 * PROFILE_OPENSEARCH=<index prefix> profiles the distributed gateway instead (the places app in a
 * process of its own on that OpenSearch index, over NATS; bench/places-app.ts), the process's
 * CPU per request printed beside the profile.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { autocompleteQueries, KEY, viaClient, viaWrk } from './search-latency';
import { startSampleServer } from './sample-server';
import { startDistributedGateway } from './places-app';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summarize } = require('./cpuprofile-summary.js') as { summarize: (profile: unknown, top?: number) => string };

/** The distributed gateway listening on a free port, warmed up at 4, 8 and 1 clients (JIT, connections), as startSampleServer gives the standalone one. */
async function distributedServer(indexPrefix: string, logLevel: string): Promise<{ port: number; queries: string[]; close(): Promise<void> }> {
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const settings = { HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: logLevel, SEED_API_KEY: KEY, DEFAULT_MONTHLY_SEARCH_LIMIT: 100_000_000, RATE_LIMIT_PER_SECOND: 0, SAMPLE_DATA: false };
  const { app, release } = await startDistributedGateway(indexPrefix, settings);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  for (const c of [4, 8, 1]) await viaClient(port, queries, c, 'query');
  return {
    port,
    queries,
    close: async () => {
      await app.close();
      await release();
    },
  };
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'bench/gateway-profile.cpuprofile');
  const rounds = Number(process.argv[3] ?? 3);
  const concurrency = Number(process.env['PROFILE_CONCURRENCY'] ?? 8);
  const logLevel = process.env['LOG_LEVEL'] ?? 'info';
  const distributed = process.env['PROFILE_OPENSEARCH'];
  const { port, queries, close } = distributed
    ? await distributedServer(distributed, logLevel)
    : await startSampleServer('gateway-profile', logLevel, undefined, process.env['PROFILE_DATA_DIR']);
  // Warm-up: the main thread's code settles over a few thousand requests.
  for (let i = 0; i < 2; i++) await viaClient(port, queries, concurrency, 'query');
  const all = Array.from({ length: rounds }, () => queries).flat();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const cpu0 = process.cpuUsage();
  const target = (process.env['PROFILE_TARGET'] ?? 'query') as 'query' | 'regions' | 'health';
  const r =
    process.env['PROFILE_CLIENT'] === 'wrk' && target !== 'regions'
      ? await viaWrk(port, queries, concurrency, target, 5 * rounds)
      : await viaClient(port, all, concurrency, target);
  const cpu = process.cpuUsage(cpu0);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  const requests = r && 'requests' in r ? r.requests : all.length;
  // This process's CPU (all its threads), profiler included: for comparing runs of this bench.
  const cpuUs = Math.round((cpu.user + cpu.system) / requests);
  console.log(`${target} at ${concurrency} clients: ${JSON.stringify(r)}; server process CPU ${cpuUs} µs a request (profiling); profile: ${out}`);
  console.log(summarize(profile, 40));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
