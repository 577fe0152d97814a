/**
 * What metering a monthly quota costs a request (issue 19): the same metered route
 * (`POST /v1/places/{id}`, the search quota) on two gateway apps in this process, one with
 * QUOTA_LEASE_MAX=1 (a lease of one use per request: one database statement per request, what
 * every metered request paid before leases) and one with the default leases, against `GET /health`
 * of the same server as the floor. The services behind the gateway are scripted (answer at once),
 * so the gateway's own work is measured. The client is a child process (keep-alive); targets
 * alternate in rounds so the machine's noise falls on all of them.
 *   node -r ./tools/ts-register.js bench/quota-metering.ts standalone|distributed
 * distributed: PostgreSQL 127.0.0.1:5432, a schema of the bench's own; standalone: SQLite in a temp dir.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';

interface Target {
  name: string;
  port: number;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const PER_ROUND = 1000;
const ROUNDS = 5;

function once(agent: Agent, t: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const headers: Record<string, string | number> = {};
    if (t.body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(t.body);
    }
    const req = request({ host: '127.0.0.1', port: t.port, path: t.path, method: t.method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`${t.name}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(t.body);
  });
}

/** Child: `targets` JSON, concurrency; prints per target p50/p95 and requests per second. */
async function client(targets: Target[], c: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: c });
  const times: Record<string, number[]> = {};
  const secs: Record<string, number> = {};
  for (const t of targets) for (let i = 0; i < 200; i++) await once(agent, t); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...targets].reverse() : targets;
    for (const t of order) {
      let left = PER_ROUND;
      const t0 = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: c }, async () => {
          while (left-- > 0) (times[t.name] ??= []).push(await once(agent, t));
        }),
      );
      secs[t.name] = (secs[t.name] ?? 0) + Number(process.hrtime.bigint() - t0) / 1e9;
    }
  }
  agent.destroy();
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
  const out: Record<string, unknown> = {};
  for (const t of targets) out[t.name] = { p50: +pct(times[t.name], 0.5).toFixed(3), p95: +pct(times[t.name], 0.95).toFixed(3), rps: Math.round(times[t.name].length / secs[t.name]) };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runClient(targets: Target[], c: number): Promise<Record<string, { p50: number; p95: number; rps: number }>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', './tools/ts-register.js', __filename, '--client', JSON.stringify(targets), String(c)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop() as string)) : reject(new Error(`client exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const { loadConfig } = await import('../libs/shared/config/src');
  const { gatewayStore } = await import('./gateway-store');
  const { ApiKeyService } = await import('../libs/gateway/src/keys/api-key.service');
  const { ApiKeyRepository } = await import('../libs/gateway/src/keys/api-key.repository');
  const { startScriptedGateway } = await import('../libs/gateway/src/testing/scripted-gateway.testing');
  // Standalone: both apps on one SQLite file, as two processes of one install would not be (it is one process's store).
  const { profile, overrides, cleanup } = await gatewayStore('benchquota');
  const base = { ...overrides, LOG_LEVEL: 'silent', DEMO_PAGE: false, SEED_API_KEY: 'bench-unused', RATE_LIMIT_PER_SECOND: 0, DEFAULT_MONTHLY_SEARCH_LIMIT: 1e9 };
  const perRequest = await startScriptedGateway(loadConfig({}, { ...base, QUOTA_LEASE_MAX: 1 }));
  const leased = await startScriptedGateway(loadConfig({}, base));
  const port = (gw: { base: string }) => Number(new URL(gw.base).port);
  const key = (await leased.app.get(ApiKeyService).create({ name: 'bench' })).key;
  // Statements each app sent to the quota counter.
  const statements = { perRequest: 0, leased: 0 };
  for (const [name, gw] of [['perRequest', perRequest], ['leased', leased]] as const) {
    const repo = gw.app.get(ApiKeyRepository);
    for (const m of ['leaseQuota', 'reportQuota'] as const) {
      const orig = repo[m].bind(repo) as (...a: unknown[]) => Promise<unknown>;
      (repo as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
        statements[name]++;
        return orig(...a);
      };
    }
  }
  const detail = (p: number, name: string): Target => ({ name, port: p, method: 'POST', path: '/v1/places/cz_m500011', body: `api_key=${key}` });
  const targets: Target[] = [
    { name: 'health', port: port(leased), method: 'GET', path: '/health' },
    detail(port(perRequest), 'meteredPerRequest'),
    detail(port(leased), 'meteredLeased'),
  ];
  const load0 = loadavg()[0];
  const r1 = await runClient(targets, 1);
  const r8 = await runClient(targets, 8);
  const load1 = loadavg()[0];
  const rows = targets.map((t) => ({
    target: t.name,
    c1p50: r1[t.name].p50,
    c1p50OverHealthMs: +(r1[t.name].p50 - r1.health.p50).toFixed(3),
    c8rps: r8[t.name].rps,
    c8rpsShareOfHealth: +(r8[t.name].rps / r8.health.rps).toFixed(2),
  }));
  console.log(JSON.stringify({ profile, loadavg: [+load0.toFixed(2), +load1.toFixed(2)], requestsPerTarget: 2 * ROUNDS * PER_ROUND + 400, statements }));
  console.table(rows);
  await perRequest.app.close();
  await leased.app.close();
  await cleanup();
}

if (process.argv[2] === '--client') {
  client(JSON.parse(process.argv[3]) as Target[], Number(process.argv[4])).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
