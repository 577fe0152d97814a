/**
 * Autocomplete latency, p50/p95/p99 and throughput at concurrency 1 and 32, through the gateway
 * over HTTP and straight at the engine (PlacesSearchService in this process, no HTTP, no
 * transport) in the same run, so the gateway (+ NATS) overhead shows as a ratio and as added
 * milliseconds. The HTTP client is a separate process (keep-alive connections, one per client),
 * as a shop's backend would be, so its work does not run on the gateway's event loop; it shares
 * the machine's cores all the same. Two floors are measured the same way: `GET /health` (HTTP
 * and routing only) and `/v1/places/regions` (key check, transport, no search), the least a
 * request costs here before any search.
 *   node -r ./tools/ts-register.js bench/search-latency.ts sqlite <dir holding places.sqlite>
 *   node -r ./tools/ts-register.js bench/search-latency.ts opensearch <index-prefix>
 *   node -r ./tools/ts-register.js bench/search-latency.ts sample
 * sqlite: the standalone app (in-process bus); opensearch: gateway in this process -> NATS ->
 * the places app in a process of its own (PostgreSQL for keys, NATS and OpenSearch on 127.0.0.1).
 */
import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { INestApplication } from '@nestjs/common';
import { loadConfig } from '../libs/shared/config/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { createStandaloneApp } from '../apps/standalone/src/standalone';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { PlacesStore } from '../libs/places/src/store/places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { SearchThreads } from '../libs/places/src/search/search-threads';
import { startDistributedGateway } from './places-app';
import { loadGolden } from '../libs/places/src/search/testing/golden-queries';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';

export const KEY = 'bench-search-key';

/** The search threads' settings a bench takes from its environment (SEARCH_THREADS, SEARCH_INLINE_BELOW_MS); the app's defaults otherwise. */
export function threadSettings(): { SEARCH_THREADS?: number; SEARCH_INLINE_BELOW_MS?: number } {
  const out: { SEARCH_THREADS?: number; SEARCH_INLINE_BELOW_MS?: number } = {};
  for (const name of ['SEARCH_THREADS', 'SEARCH_INLINE_BELOW_MS'] as const) if (process.env[name]) out[name] = Number(process.env[name]);
  return out;
}

/** What a typing user sends: every golden query cut after 3 letters, after each word, and whole. */
export function autocompleteQueries(file: string): string[] {
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

export function percentiles(ms: number[]): { p50: number; p95: number; p99: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))] * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}

/**
 * Over HTTP also the CPU each request cost: `clientMs` in the client process (all its threads),
 * `serverMainMs` on the server's main thread (its event loop's active time; the search threads
 * not included). On two cores shared by client, server and threads these bound the throughput.
 */
export type Result = ReturnType<typeof percentiles> & { rps: number; clientMs?: number; serverMainMs?: number };

export async function run(queries: string[], concurrency: number, one: (q: string) => Promise<unknown>): Promise<Result> {
  const times: number[] = [];
  let next = 0;
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    while (next < queries.length) {
      const q = queries[next++];
      const t0 = process.hrtime.bigint();
      await one(q);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { ...percentiles(times), rps: Math.round(times.length / seconds) };
}

/**
 * Two ways of answering the same queries timed query by query, which goes first alternating by
 * query and round, so machine drift and the state one leaves behind hit both alike: `rounds`
 * rounds, each query's two times (ms) given to `each` with its index. For A/B comparisons of
 * engines in one process (bench/gateway-goals.ts, bench/opensearch-engine-profile.ts).
 */
export async function timeInterleaved(
  ways: [(q: string) => Promise<unknown>, (q: string) => Promise<unknown>],
  queries: string[],
  rounds: number,
  each: (i: number, ms: [number, number]) => void,
): Promise<void> {
  for (let r = 0; r < rounds; r++) {
    for (const [i, query] of queries.entries()) {
      const ms: [number, number] = [0, 0];
      for (const w of (i + r) % 2 ? [0, 1] : [1, 0]) {
        const t = performance.now();
        await ways[w](query);
        ms[w] = performance.now() - t;
      }
      each(i, ms);
    }
  }
}

/**
 * Two stores on the 1 117 typed golden queries as a CZ user asks them (country CZ): how many
 * answers differ, then both timed query by query (timeInterleaved, two rounds) with the load
 * average before and after. For benches of one data layout against another.
 */
export async function compareCzStores(a: PlacesStore, b: PlacesStore): Promise<{ queries: number; differ: number; a: ReturnType<typeof percentiles>; b: ReturnType<typeof percentiles>; load: string }> {
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const ask = (s: PlacesSearchService) => (query: string) => s.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  const ways: [(q: string) => Promise<unknown>, (q: string) => Promise<unknown>] = [ask(new PlacesSearchService(a)), ask(new PlacesSearchService(b))];
  const load0 = loadavg()[0].toFixed(2);
  let differ = 0;
  for (const q of queries) if (JSON.stringify(await ways[0](q)) !== JSON.stringify(await ways[1](q))) differ++;
  const ms: number[][] = [[], []];
  await timeInterleaved(ways, queries, 2, (_, t) => (ms[0].push(t[0]), ms[1].push(t[1])));
  return { queries: queries.length, differ, a: percentiles(ms[0]), b: percentiles(ms[1]), load: `${load0} -> ${loadavg()[0].toFixed(2)}` };
}

/** Resident set size (MB) of another process. */
export function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** One HTTP request on a keep-alive connection; the body is read whole, a status other than 200 fails the run. */
function httpCall(agent: Agent, port: number, method: 'GET' | 'POST', path: string, body?: string): Promise<void> {
  return new Promise((resolveCall, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolveCall() : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString()}`))));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The client process: `--client <port> <key> <concurrency> <target>`, queries on stdin, one JSON result on stdout. */
async function client(port: number, key: string, concurrency: number, target: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const queries = JSON.parse(Buffer.concat(chunks).toString()) as string[];
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const one =
    target === 'health'
      ? () => httpCall(agent, port, 'GET', '/health')
      : target === 'regions'
        ? () => httpCall(agent, port, 'POST', '/v1/places/regions', new URLSearchParams({ api_key: key, country: 'CZ' }).toString())
        : (query: string) => httpCall(agent, port, 'POST', '/v1/places/query', new URLSearchParams({ api_key: key, query, country: 'CZ' }).toString());
  await run(queries.slice(0, 100), Math.min(4, concurrency), one); // connections, JIT
  const cpu0 = process.cpuUsage();
  const result = await run(queries, concurrency, one);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ...result, clientMs: Math.round((cpu.user + cpu.system) / queries.length) / 1000 }));
  agent.destroy();
}

/** Runs the client process against the gateway and reads its result. */
export function viaClient(port: number, queries: string[], concurrency: number, target: 'query' | 'health' | 'regions'): Promise<Result> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename, '--client', String(port), KEY, String(concurrency), target], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    // This process is the server (standalone, or the gateway): its main thread's busy time,
    // the client's start and warm-up included, a small overstatement.
    const elu0 = performance.eventLoopUtilization();
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`client exited with ${code}`));
      const busy = performance.eventLoopUtilization(elu0).active;
      const result = JSON.parse(out) as Result;
      resolveRun({ ...result, serverMainMs: Math.round((busy / (queries.length + Math.min(100, queries.length))) * 1000) / 1000 });
    });
    child.stdin.end(JSON.stringify(queries));
  });
}

/** wrk (Debian's `wrk`, C, one thread): the load generator that costs the least CPU of its own. */
export const WRK = '/usr/bin/wrk';

export interface WrkResult {
  rps: number;
  requests: number;
  /** The latency percentiles wrk reports (ms). */
  p50: number;
  p99: number;
  /** wrk's own CPU per request (ms), user + system, from /usr/bin/time. */
  clientMs: number | null;
}

const WRK_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

/**
 * `seconds` of load from wrk at `concurrency` connections (one thread), the same requests as
 * viaClient sends, cycled: the golden queries for `query`, else `GET /health`. Null when wrk is
 * not installed (`apt-get install wrk`). Any answer but 200, or a socket error, fails the run.
 * `queryPath`: where the searches go (a bench's own route).
 * The bench's own node:http client costs 0.2-0.3 ms of CPU per request, wrk 0.03: on two shared
 * cores the client's share bounds every throughput measured with it.
 */
export async function viaWrk(port: number, queries: string[], concurrency: number, target: 'query' | 'health', seconds = 5, queryPath = '/v1/places/query'): Promise<WrkResult | null> {
  if (!existsSync(WRK)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'requests.lua');
    const bodies = queries.map((q) => JSON.stringify(new URLSearchParams({ api_key: KEY, query: q, country: 'CZ' }).toString()));
    writeFileSync(
      script,
      target === 'health'
        ? 'request = function() return wrk.format("GET", "/health") end\n'
        : [
            `local bodies = { ${bodies.join(', ')} }`,
            'local i = 0',
            'local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }',
            'request = function()',
            '  i = i % #bodies + 1',
            `  return wrk.format("POST", "${queryPath}", headers, bodies[i])`,
            'end',
            '',
          ].join('\n'),
    );
    const timed = existsSync('/usr/bin/time');
    const args = ['-t1', `-c${concurrency}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`];
    const out = await new Promise<string>((done, fail) =>
      execFile(timed ? '/usr/bin/time' : WRK, timed ? ['-f', 'CPU %U %S', WRK, ...args] : args, { encoding: 'utf8' }, (err, stdout, stderr) => (err ? fail(err) : done(`${stdout}\n${stderr}`))),
    );
    if (/Non-2xx|Socket errors/.test(out)) throw new Error(`wrk saw failed requests:\n${out}`);
    const num = (re: RegExp) => {
      const m = re.exec(out);
      if (!m) throw new Error(`wrk output without ${re}:\n${out}`);
      return m;
    };
    const latency = (pct: string) => {
      const m = num(new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)$`, 'm'));
      return Math.round(Number(m[1]) * WRK_MS[m[2]] * 100) / 100;
    };
    const requests = Number(num(/(\d+) requests in/)[1]);
    const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(out);
    return {
      rps: Math.round(Number(num(/Requests\/sec:\s+([\d.]+)/)[1])),
      requests,
      p50: latency('50'),
      p99: latency('99'),
      clientMs: cpu ? Math.round(((Number(cpu[1]) + Number(cpu[2])) / requests) * 1e6) / 1000 : null,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One engine's run: the gateway over HTTP (client process) and the engine in this process on the
 * same queries, at concurrency 1 and 32 (and 8 with `sample`), then the floors. `sample`: the
 * standalone app on the bundled sample in a fresh data dir (imported at start), `target` unused.
 */
/** Through the gateway and in-process at one concurrency. */
export interface LatencyRun {
  gateway: Result;
  engine: Result;
  ratioP50: number;
  addedP50ms: number;
}

/** What `measureLatency` measured: `c8`, `floorC8` and `wrkC8` only for the sample, `wrkC32` for the others. */
export interface LatencyResults {
  engine: string;
  queries: number;
  searchThreads: number | null;
  gatewayRssMB: number;
  c1: LatencyRun;
  c8: LatencyRun;
  c32: LatencyRun;
  engineOnThreads?: { c1: Result; c32: Result };
  floorC1: { health: Result; regions: Result };
  floorC8: { health: Result; regions: Result };
  floorC32: { health: Result; regions: Result };
  wrkC8?: { search: WrkResult; health: WrkResult | null } | null;
  wrkC32?: { search: WrkResult; health: WrkResult | null } | null;
  serverRssMB?: number;
  placesServiceRssMB?: number;
}

export async function measureLatency(engine: 'sqlite' | 'opensearch' | 'sample', target: string, file?: string): Promise<LatencyResults> {
  const queries = autocompleteQueries(resolve(file ?? '../shared/data/queries/cz-addresses.jsonl'));
  let app: INestApplication;
  let store: PlacesStore;
  let servicePid: number | undefined;
  const cleanup: Array<() => Promise<unknown>> = [];
  const base = { HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: KEY, DEFAULT_MONTHLY_SEARCH_LIMIT: 100_000_000, RATE_LIMIT_PER_SECOND: 0, SAMPLE_DATA: false, ...threadSettings() };
  if (engine === 'sqlite' || engine === 'sample') {
    const dir = engine === 'sample' ? mkdtempSync(join(tmpdir(), 'bench-sample-')) : resolve(target);
    if (engine === 'sample') cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const config = loadConfig({}, { ...base, PROFILE: 'standalone', DATA_DIR: dir, SAMPLE_DATA: engine === 'sample' });
    app = await createStandaloneApp(config);
    store = new SqlitePlacesStore(resolve(dir, 'places.sqlite'));
  } else {
    const distributed = await startDistributedGateway(target, base);
    cleanup.push(distributed.release);
    servicePid = distributed.places.process.pid;
    app = distributed.app;
    store = new OpenSearchPlacesStore(createOpenSearchClient({ url: distributed.config.OPENSEARCH_URL, timeoutMs: 10000 }), target);
  }
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  await viaClient(port, queries.slice(0, 200), 4, 'query'); // warm-up: caches, JIT, search threads
  // The server's memory once it has answered every query, before this process opens its own
  // connection for the in-process runs (what a standalone deployment holds; the threads included).
  await viaClient(port, queries, 8, 'query');
  // The main thread's code warms up over thousands of requests (searches/s at 8 clients rose by a
  // third over the first five rounds on the sample): two more rounds, and one at concurrency 1
  // (where a quiet server may run searches itself, SEARCH_INLINE_BELOW_MS), before measuring.
  for (const c of [8, 8, 1]) await viaClient(port, queries, c, 'query');
  const gatewayRssMB = Math.round(process.memoryUsage.rss() / 2 ** 20);
  await store.init();
  const direct = new PlacesSearchService(store);
  const straight = (query: string) => direct.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  await run(queries.slice(0, 200), 4, straight);
  const standalone = engine !== 'opensearch';
  const threads = standalone ? loadConfig({}, base).SEARCH_THREADS : 0;
  const results = { engine, queries: queries.length, searchThreads: standalone ? threads : null, gatewayRssMB } as LatencyResults;
  const set = results as unknown as Record<string, unknown>;
  for (const c of engine === 'sample' ? [1, 8, 32] : [1, 32]) {
    const g = await viaClient(port, queries, c, 'query');
    const d = await run(queries, c, straight);
    set[`c${c}`] = { gateway: g, engine: d, ratioP50: Math.round((g.p50 / d.p50) * 100) / 100, addedP50ms: Math.round((g.p50 - d.p50) * 100) / 100 };
  }
  if (store instanceof SqlitePlacesStore && threads > 0) {
    // The engine alone on the search threads (no HTTP): what the threads add and what they can do.
    const pool = new SearchThreads(() => (store as SqlitePlacesStore).source, threads);
    const viaThreads = new PlacesSearchService(store, undefined, undefined, pool);
    const threaded = (query: string) => viaThreads.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
    await run(queries.slice(0, 200), 4, threaded);
    results.engineOnThreads = { c1: await run(queries, 1, threaded), c32: await run(queries, 32, threaded) };
    await pool.close();
  }
  // The least a request costs here at the same concurrency, before any search.
  for (const c of engine === 'sample' ? [1, 8, 32] : [1, 32]) set[`floorC${c}`] = { health: await viaClient(port, queries, c, 'health'), regions: await viaClient(port, queries, c, 'regions') };
  // The same throughputs with wrk, whose own CPU is a tenth of the node client's (null without wrk).
  const wrkAt = engine === 'sample' ? 8 : 32;
  const wrkSearch = await viaWrk(port, queries, wrkAt, 'query');
  set[`wrkC${wrkAt}`] = wrkSearch && { search: wrkSearch, health: engine === 'sample' ? await viaWrk(port, queries, wrkAt, 'health') : null };
  results.serverRssMB = Math.round(process.memoryUsage.rss() / 2 ** 20);
  if (servicePid) results.placesServiceRssMB = Math.round(rssMB(servicePid));
  await app.close();
  await store.close();
  for (const c of cleanup.reverse()) await c();
  return results;
}

async function main(): Promise<void> {
  const [engine, target, file] = process.argv.slice(2, 5);
  if (engine !== 'sqlite' && engine !== 'opensearch' && engine !== 'sample') throw new Error('usage: search-latency.ts sqlite <dir> | opensearch <index-prefix> | sample');
  console.log(JSON.stringify(await measureLatency(engine, target ?? '', file), null, 1));
}

const cli = process.argv.slice(2);
if (require.main === module) (cli[0] === '--client' ? client(Number(cli[1]), cli[2], Number(cli[3]), cli[4]) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
