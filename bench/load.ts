// Load benchmark: sustained mixed traffic against a running gateway at rising rates until p99
// passes the budget; reports the highest rate held with p99 under budget and zero errors.
// Run it as its own process (the load generator), next to the server under test:
//   node -r ./tools/ts-register.js bench/load.ts --url http://127.0.0.1:3000 --key <key> --profile distributed
// Options: --duration 60 (s per step) --start 50 --step 1.5 (x) --max 5000 --p99 100 (ms) --connections 64
//          --rss-root <pid> (RSS of that process and all its descendants, peak per step) --rss-pids a,b (more pids, e.g. OpenSearch)
//          --warmup 10 (s at the start rate first, not reported: JIT, caches, connections) --out file.json
// Open loop, evenly paced: request i is due at start + i/rate and its latency counts from that
// moment, so a server that falls behind is charged for the wait (no coordinated omission).
// autocannon's overallRate is not used: it lets every connection send its share at the start of
// each second, i.e. bursts of `rate` requests once a second, which measures burst queueing
// (p50 90 ms at 40 req/s on 5 ms requests), not sustained traffic.
// Use a key with limits high enough for the run (npm run keys -- create --name bench --search-limit 100000000 --rate 0).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { buildMix, MixRequest, MixSeeds } from './traffic-mix';

interface Step {
  rate: number;
  achievedRps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** `/proc/loadavg` (1-minute) just before the step. */
  loadBefore: number;
  /** Peak resident memory (MB) of the app processes (--rss-root and its descendants) during the step. */
  peakRssMB: number | null;
  /** Peak resident memory (MB) of the other processes watched (--rss-pids, e.g. OpenSearch). */
  peakOtherRssMB: number | null;
  /** Answers by status code, to tell quota/validation refusals from server faults. */
  statuses: Record<string, number>;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  ok: boolean;
}

function args(): Record<string, string> {
  const out: Record<string, string> = {};
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) out[a[i].replace(/^--/, '')] = a[i + 1];
  return out;
}

async function call<T>(url: string, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10000) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Seeds from the server itself (catalogue calls are not metered), so the mix hits real data. */
async function seeds(url: string, key: string): Promise<MixSeeds> {
  const munis = await call<Array<{ place_id: string; municipality: string; latlng?: { lat: number; lng: number } }>>(url, '/v1/places/municipalities', { api_key: key, country: 'CZ' });
  const addresses = await call<Array<{ place_id: string; street?: string; latlng?: { lat: number; lng: number } }>>(url, '/v1/places/query', { api_key: key, query: munis[0]?.municipality ?? 'a', limit: 20 });
  const businesses = await call<Array<{ name: string }>>(url, '/v1/business/query', { api_key: key, query: 'a', limit: 20 }).catch(() => []);
  const streets = [...new Set(addresses.map((a) => a.street).filter((s): s is string => !!s))].slice(0, 20);
  return {
    placeWords: [...streets, ...munis.slice(0, 20).map((m) => m.municipality)],
    businessWords: businesses.map((b) => b.name.split(/\s+/)[0]).filter((w) => w.length >= 3).slice(0, 10),
    placeIds: [...munis.slice(0, 50), ...addresses].map((p) => p.place_id),
    positions: [...munis, ...addresses].map((p) => p.latlng).filter((p): p is { lat: number; lng: number } => !!p).slice(0, 50),
  };
}

/** Resident set size (MB) of one process, 0 when it is gone. */
function rssMB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** A process and all its descendants (the stack runner spawns one child per app). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** Peak summed RSS of a set of processes, sampled every second. */
class RssPeak {
  peak = 0;
  constructor(private readonly pids: number[]) {}
  sample(): void {
    this.peak = Math.max(this.peak, this.pids.reduce((sum, p) => sum + rssMB(p), 0));
  }
  result(): number | null {
    return this.pids.length ? Math.round(this.peak) : null;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 100) / 100;
}

interface PacedRun {
  times: number[];
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  seconds: number;
}

/** Sends `mix` round-robin at `rate` requests/s for `seconds`, over at most `connections` keep-alive sockets. */
async function paced(base: URL, mix: MixRequest[], rate: number, seconds: number, connections: number, timeoutMs: number): Promise<PacedRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const out: PacedRun = { times: [], statuses: {}, errors: 0, timeouts: 0, seconds: 0 };
  const pending = new Set<Promise<void>>();
  const send = (m: MixRequest, due: number) =>
    new Promise<void>((done) => {
      const req = request(
        { host: base.hostname, port: base.port, path: m.path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(m.body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            out.times.push(performance.now() - due);
            out.statuses[res.statusCode ?? 0] = (out.statuses[res.statusCode ?? 0] ?? 0) + 1;
            done();
          });
        },
      );
      req.setTimeout(timeoutMs, () => {
        out.timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        out.errors++;
        done();
      });
      req.end(m.body);
    });
  const start = performance.now();
  const end = start + seconds * 1000;
  const interval = 1000 / rate;
  for (let i = 0; ; i++) {
    const due = start + i * interval;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p = send(mix[i % mix.length], due).finally(() => pending.delete(p));
    pending.add(p);
  }
  await Promise.all([...pending]);
  out.seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return out;
}

async function step(url: string, mix: MixRequest[], rate: number, o: Record<string, string>): Promise<Step> {
  const loadBefore = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const app = new RssPeak(o['rss-root'] ? processTree(Number(o['rss-root'])) : []);
  const other = new RssPeak((o['rss-pids'] ?? '').split(',').filter(Boolean).map(Number));
  const sample = () => {
    app.sample();
    other.sample();
  };
  const sampler = setInterval(sample, 1000);
  const r = await paced(new URL(url), mix, rate, Number(o['duration'] ?? 60), Number(o['connections'] ?? 64), 10_000);
  clearInterval(sampler);
  sample();
  const times = r.times.sort((a, b) => a - b);
  const non2xx = Object.entries(r.statuses).filter(([code]) => !code.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  const budget = Number(o['p99'] ?? 100);
  const s = {
    rate,
    achievedRps: Math.round(times.length / r.seconds),
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    max: Math.round((times.at(-1) ?? 0) * 100) / 100,
    loadBefore,
    peakRssMB: app.result(),
    peakOtherRssMB: other.result(),
    statuses: r.statuses,
    requests: times.length + r.errors,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx,
  };
  // Held: latency within budget, nothing failed, and the answers kept up with the rate (within 5 %).
  return { ...s, ok: s.p99 < budget && s.errors === 0 && s.timeouts === 0 && s.non2xx === 0 && s.achievedRps >= rate * 0.95 };
}

function mixSummary(mix: MixRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of mix) out[m.kind] = (out[m.kind] ?? 0) + 1;
  return out;
}

async function main(): Promise<void> {
  const o = args();
  const url = o['url'] ?? 'http://127.0.0.1:3000';
  const key = o['key'];
  if (!key) throw new Error('--key is required');
  const mix = buildMix(await seeds(url, key), key);
  const steps: Step[] = [];
  let rate = Number(o['start'] ?? 50);
  const warmup = Number(o['warmup'] ?? 10);
  if (warmup > 0) await step(url, mix, rate, { ...o, duration: String(warmup), 'rss-root': '', 'rss-pids': '' });
  const factor = Number(o['step'] ?? 1.5);
  const max = Number(o['max'] ?? 5000);
  while (rate <= max) {
    const s = await step(url, mix, rate, o);
    steps.push(s);
    console.log(JSON.stringify(s));
    if (!s.ok) break;
    rate = Math.round(rate * factor);
  }
  const held = steps.filter((s) => s.ok).at(-1);
  const report = { profile: o['profile'] ?? 'unknown', url, mix: mixSummary(mix), durationS: Number(o['duration'] ?? 60), p99BudgetMs: Number(o['p99'] ?? 100), highestHeldRate: held?.rate ?? 0, steps };
  console.log(`highest rate held with p99 < ${report.p99BudgetMs} ms and zero errors: ${report.highestHeldRate} req/s (${report.profile})`);
  if (o['out']) writeFileSync(o['out'], JSON.stringify(report, null, 2));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
