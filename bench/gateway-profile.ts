/**
 * A CPU profile of the standalone gateway's main thread under load: the app on the bundled
 * sample (a fresh data dir, imported at start), the HTTP client in a process of its own
 * (keep-alive, bench/search-latency.ts's client) sending the typed golden queries at
 * concurrency 8, the V8 sampling profiler on for that phase only. Writes the `.cpuprofile`
 * (open it in Chrome DevTools or speedscope) and prints bench/cpuprofile-summary.js's table.
 *   node -r ./tools/ts-register.js bench/gateway-profile.ts [out.cpuprofile] [rounds]
 * LOG_LEVEL (default info, what the app runs with; the log goes to /dev/null) and
 * SEARCH_THREADS are taken from the environment; PROFILE_TARGET (query, regions or health) picks
 * the route (default query).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { viaClient } from './search-latency';
import { startSampleServer } from './sample-server';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summarize } = require('./cpuprofile-summary.js') as { summarize: (profile: unknown, top?: number) => string };

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'bench/gateway-profile.cpuprofile');
  const rounds = Number(process.argv[3] ?? 3);
  const { port, queries, close } = await startSampleServer('gateway-profile', process.env['LOG_LEVEL'] ?? 'info');
  const all = Array.from({ length: rounds }, () => queries).flat();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const target = (process.env['PROFILE_TARGET'] ?? 'query') as 'query' | 'regions' | 'health';
  const r = await viaClient(port, all, 8, target);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  console.log(`${target} at 8 clients: ${JSON.stringify(r)}; profile: ${out}`);
  console.log(summarize(profile, 40));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
