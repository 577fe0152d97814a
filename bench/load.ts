// Load benchmark: sustained mixed traffic against a running gateway at rising rates until p99
// passes the budget; reports the highest rate held with p99 under budget and zero errors.
//   npm run build && node dist/bench/load.js --url http://127.0.0.1:3000 --key <key> --profile distributed
// Options: --duration 60 (s per step) --start 50 --step 1.5 (x) --max 5000 --p99 100 (ms) --connections 64 --out file.json
// Use a key with limits high enough for the run (npm run keys -- create --name bench --search-limit 100000000).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon');
import { writeFileSync } from 'node:fs';
import { buildMix, MixRequest, MixSeeds } from './traffic-mix';

interface Step {
  rate: number;
  achievedRps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
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

async function step(url: string, mix: MixRequest[], rate: number, o: Record<string, string>): Promise<Step> {
  let i = 0;
  const r = await autocannon({
    url,
    connections: Number(o['connections'] ?? 64),
    overallRate: rate,
    duration: Number(o['duration'] ?? 60),
    timeout: 10,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const m = mix[i++ % mix.length];
          return { ...req, method: 'POST', path: m.path, headers: { 'content-type': 'application/json' }, body: m.body };
        },
      },
    ],
  });
  const budget = Number(o['p99'] ?? 100);
  const s = {
    rate,
    achievedRps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  };
  // Held: latency within budget, nothing failed, and the tool really sent that rate (within 5 %).
  return { ...s, ok: s.p99 < budget && s.errors === 0 && s.timeouts === 0 && s.non2xx === 0 && s.achievedRps >= rate * 0.95 };
}

async function main(): Promise<void> {
  const o = args();
  const url = o['url'] ?? 'http://127.0.0.1:3000';
  const key = o['key'];
  if (!key) throw new Error('--key is required');
  const mix = buildMix(await seeds(url, key), key);
  const steps: Step[] = [];
  let rate = Number(o['start'] ?? 50);
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
  const report = { profile: o['profile'] ?? 'unknown', url, durationS: Number(o['duration'] ?? 60), p99BudgetMs: Number(o['p99'] ?? 100), highestHeldRate: held?.rate ?? 0, steps };
  console.log(`highest rate held with p99 < ${report.p99BudgetMs} ms and zero errors: ${report.highestHeldRate} req/s (${report.profile})`);
  if (o['out']) writeFileSync(o['out'], JSON.stringify(report, null, 2));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
