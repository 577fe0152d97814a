/**
 * What the per-key rate limiter adds to a request: p50/p95 at concurrency 1 and 32 through the
 * gateway's HTTP stack, for a key without a rate limit and one with (a rate high enough never to
 * refuse, so every request runs the limiter: local tokens, and a lease from the shared bucket
 * every 0.1 s worth of the rate or when the lease expires). The two keys alternate in rounds in
 * the same run, so the machine's noise falls on both. The services behind the gateway are
 * scripted (answer at once), so the gateway's own work is what is measured.
 *   node -r ./tools/ts-register.js bench/rate-limit.ts standalone|distributed
 * distributed: the shared buckets in PostgreSQL (127.0.0.1:5432), a schema of the bench's own.
 * Also: the limiter's fast path alone (tokens at hand), in ns per call.
 */
import 'reflect-metadata';
import { Agent, request } from 'node:http';
import { loadConfig } from '../libs/shared/config/src';
import { gatewayStore } from './gateway-store';
import { ApiKeyService } from '../libs/gateway/src/keys/api-key.service';
import { ApiKeyRepository } from '../libs/gateway/src/keys/api-key.repository';
import { RateLimiter } from '../libs/gateway/src/ratelimit/rate-limiter';
import { MemoryTokenStore } from '../libs/gateway/src/ratelimit/token-store';
import { startScriptedGateway } from '../libs/gateway/src/testing/scripted-gateway.testing';

const PER_ROUND = 1500;
const ROUNDS = 6;

function post(agent: Agent, port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, path: '/v1/places/regions', method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function round(port: number, key: string, concurrency: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const times: number[] = [];
  let left = PER_ROUND;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (left-- > 0) times.push(await post(agent, port, `country=CZ&api_key=${key}`));
  }));
  agent.destroy();
  return times;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
const r2 = (x: number) => Math.round(x * 1000) / 1000;

async function fastPath(): Promise<number> {
  const limiter = new RateLimiter(new MemoryTokenStore());
  const key = { id: 1, ratePerSecond: 1e9, rateBurst: 1e9 };
  await limiter.take(key); // the first lease: tokens for the whole loop
  const n = 2_000_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) limiter.take(key);
  return Number(process.hrtime.bigint() - t0) / n;
}

async function main(): Promise<void> {
  const { profile, overrides, cleanup } = await gatewayStore('benchrate');
  const gw = await startScriptedGateway(loadConfig({}, { ...overrides, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'bench-unused', DEFAULT_MONTHLY_SEARCH_LIMIT: 1e9 }));
  const port = Number(new URL(gw.base).port);
  const keys = gw.app.get(ApiKeyService);
  const off = (await keys.create({ name: 'no limit', ratePerSecond: 0 })).key;
  const on = (await keys.create({ name: 'limited', ratePerSecond: 20_000, rateBurst: 40_000 })).key;
  await round(port, off, 8);
  await round(port, on, 8);
  for (const c of [1, 32]) {
    const t = { off: [] as number[], on: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so neither always runs on a warmer process.
      const order = i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      for (const which of order) t[which].push(...(await round(port, which === 'on' ? on : off, c)));
    }
    console.log(JSON.stringify({
      profile, concurrency: c, requests: t.on.length,
      off: { p50: r2(pct(t.off, 0.5)), p95: r2(pct(t.off, 0.95)) },
      on: { p50: r2(pct(t.on, 0.5)), p95: r2(pct(t.on, 0.95)) },
      addedP50Ms: r2(pct(t.on, 0.5) - pct(t.off, 0.5)),
    }));
  }
  console.log(JSON.stringify({ fastPathNsPerCall: Math.round(await fastPath()) }));
  if (profile === 'distributed') {
    // One lease = one statement on the shared bucket; a replica pays it once per lease, not per request.
    const repo = gw.app.get(ApiKeyRepository);
    const id = (await keys.create({ name: 'lease probe' })).entity.id;
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = process.hrtime.bigint();
      await repo.leaseTokens(id, 1e6, 1e6, 10);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    console.log(JSON.stringify({ leaseMs: { p50: r2(pct(times, 0.5)), p95: r2(pct(times, 0.95)) } }));
  }
  await gw.app.close();
  await cleanup();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
