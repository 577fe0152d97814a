/**
 * What Nest's router costs a search on the standalone gateway (issue 19): the bundled sample
 * served by the app as the benches run it (bench/sample-server.ts), with one more route beside
 * `POST /v1/places/query`, registered on Fastify directly, that does the same steps without Nest's
 * router (guards, parameter decorators, interceptor chain, exception filter): the key from the
 * same places (extractKey), ApiKeyService.authenticate and the origin/IP check, the same
 * parameters (requestParams + parseRequest), the Forwarder (quota, search thread). The two
 * routes' answers are compared on the first 200 golden queries; then wrk (8 connections, one
 * thread) alternates `GET /health`, the Nest route and the bare route, `rounds` times, and the
 * main thread's CPU per request is read from /proc (the server runs in this process; wrk in its
 * own). The bare route is a measurement, not a route the app has: errors there fall to Fastify's
 * default handler, not the compat error body.
 *   node -r ./tools/ts-register.js bench/nest-router-cost.ts [rounds] [seconds]
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { FastifyRequest } from 'fastify';
import { parseRequest, PlaceQueryRequest, Subjects } from '../libs/contracts/src';
import { ApiKeyService } from '../libs/gateway/src/keys/api-key.service';
import { Forwarder } from '../libs/gateway/src/routes/forwarder.service';
import { extractKey } from '../libs/gateway/src/http/api-key.guard';
import { requestParams } from '../libs/gateway/src/http/request-params';
import { withCaller } from '../libs/gateway/src/routes/places-search.controller';
import { startSampleServer } from './sample-server';
import { KEY, viaWrk } from './search-latency';

const BARE = '/bench/places/query';

/** CPU time (ms) of this process's main thread so far, from /proc (clock ticks of 10 ms). */
function mainThreadMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function post(port: number, path: string, query: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: new URLSearchParams({ api_key: KEY, query, country: 'CZ' }) });
  return `${res.status} ${await res.text()}`;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 4);
  const seconds = Number(process.argv[3] ?? 5);
  const server = await startSampleServer('nest-router-cost', 'info', (app) => {
    const fastify = app.getHttpAdapter().getInstance();
    const keys = app.get(ApiKeyService);
    const forwarder = app.get(Forwarder);
    fastify.post(BARE, async (req: FastifyRequest) => {
      const raw = extractKey(req);
      if (!raw) throw new Error('no key');
      const key = await keys.authenticate(raw);
      keys.assertAllowed(key, undefined, req.ip);
      const dto = parseRequest(PlaceQueryRequest, requestParams(req));
      return forwarder.forward(Subjects.places.query, withCaller(dto, req.ip), key, 'search');
    });
  });
  try {
    const { port, queries } = server;
    for (const q of queries.slice(0, 200)) {
      const [viaNest, bare] = [await post(port, '/v1/places/query', q), await post(port, BARE, q)];
      if (viaNest !== bare) throw new Error(`the two routes answer ${JSON.stringify(q)} differently:\n${viaNest.slice(0, 300)}\n${bare.slice(0, 300)}`);
    }
    const runs: Record<string, Array<{ rps: number; mainUs: number }>> = { health: [], nest: [], bare: [] };
    for (let r = 0; r < rounds; r++) {
      for (const name of ['health', 'nest', 'bare'] as const) {
        const before = mainThreadMs();
        const w = await viaWrk(port, queries, 8, name === 'health' ? 'health' : 'query', seconds, name === 'bare' ? BARE : '/v1/places/query');
        if (!w) throw new Error('wrk is not installed (apt-get install wrk)');
        runs[name].push({ rps: w.rps, mainUs: Math.round(((mainThreadMs() - before) * 1000) / w.requests) });
      }
    }
    console.log(`${rounds} rounds of ${seconds} s each, wrk at 8 connections, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log('| round | /health req/s (main thread µs a request) | search via Nest | search, bare Fastify route | Nest / bare searches/s |');
    console.log('|---|---|---|---|---|');
    for (let r = 0; r < rounds; r++) {
      const [h, n, b] = [runs.health[r], runs.nest[r], runs.bare[r]];
      const pct = (x: number) => `${Math.round((x / h.rps) * 100)} %`;
      console.log(`| ${r + 1} | ${h.rps} (${h.mainUs}) | ${n.rps} (${n.mainUs}), ${pct(n.rps)} | ${b.rps} (${b.mainUs}), ${pct(b.rps)} | ${(n.rps / b.rps).toFixed(2)} |`);
    }
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
