/**
 * Where one request's time goes on the standalone server at concurrency 1, by stage, measured
 * inside the server (the bundled sample in a fresh data dir; the client in a process of its own,
 * bench/search-latency.ts's, sending the typed golden queries):
 *   a  Fastify: request read, body parsed, hooks (onRequest .. preHandler)
 *   b  Nest: guards (key, rate limit), parameters validated, up to the Forwarder
 *   c  Forwarder: quota and the service call (bus, search thread, search); within it c1, the
 *      places service's answer (the search where it ran, main thread or a search thread, and
 *      its JSON text), and c2, the rest
 *   d  Nest and Fastify: the answer serialised, onSend hooks
 *   e  res.end(): writing the answer to the socket
 * and the same end() for `GET /health` and `/v1/places/regions`. On this machine (a VM) a write
 * made after a pause of a millisecond or more also wakes the client's idle vCPU, inside the
 * server's write; bench/http-floor.js --busy shows the same with a bare node:http server.
 *   node -r ./tools/ts-register.js bench/gateway-stages.ts [--data-dir <imported data dir>]
 * With --data-dir, the server serves that register instead of the sample.
 */
import 'reflect-metadata';
import { ServerResponse } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forwarder } from '../libs/gateway/src/routes/forwarder.service';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { SearchThreads } from '../libs/places/src/search/search-threads';
import { percentiles, viaClient } from './search-latency';
import { startSampleServer } from './sample-server';

type Marks = { start: number; handler?: number; fwdIn?: number; fwdOut?: number; searchMs?: number; here?: boolean; send?: number; end0?: number; end1?: number };

/** The stages' hooks on the server's Fastify, before it listens. */
function instrument(app: NestFastifyApplication, stages: Record<string, number[]>): void {
  const fastify = app.getHttpAdapter().getInstance();
  const marks = new WeakMap<object, Marks>();
  const byResponse = new WeakMap<ServerResponse, Marks>();
  const add = (name: string, ms: number | undefined) => ms !== undefined && !Number.isNaN(ms) && (stages[name] ??= []).push(ms);
  let current: Marks | undefined;
  fastify.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const m: Marks = { start: performance.now() };
    marks.set(req, m);
    byResponse.set(reply.raw, m);
  });
  fastify.addHook('preHandler', async (req: FastifyRequest) => {
    const m = marks.get(req) as Marks;
    m.handler = performance.now();
    current = m; // concurrency 1: the request the Forwarder is called for
  });
  fastify.addHook('onSend', async (req: FastifyRequest) => {
    (marks.get(req) as Marks).send = performance.now();
  });
  fastify.addHook('onResponse', async (req: FastifyRequest) => {
    const m = marks.get(req) as Marks;
    const route = (req.url.split('?')[0] ?? '').replace(/\/$/, '');
    if (route === '/v1/places/query') {
      add('a  Fastify: read, body, hooks', (m.handler as number) - m.start);
      add('b  Nest: guards, parameters', (m.fwdIn as number) - (m.handler as number));
      add('c  Forwarder: quota, bus, search', (m.fwdOut as number) - (m.fwdIn as number));
      // Within c: the places service's answer (the search where it ran, and its JSON text).
      add(`c1 of c: the search and its JSON, ${m.here ? 'on the main thread' : 'on a search thread'}`, m.searchMs);
      add('c2 of c: the rest (quota, key, in-process bus)', (m.fwdOut as number) - (m.fwdIn as number) - (m.searchMs ?? NaN));
      add('d  serialise, onSend hooks', (m.end0 as number) - (m.fwdOut as number));
      add('e  res.end() (socket write)', (m.end1 as number) - (m.end0 as number));
      add('   search: total in the server', (m.end1 as number) - m.start);
    } else if (route === '/health' || route === '/v1/places/regions') {
      add(`   ${route}: res.end()`, (m.end1 as number) - (m.end0 as number));
      add(`   ${route}: total in the server`, (m.end1 as number) - m.start);
    }
  });
  const forward = Forwarder.prototype.forward;
  Forwarder.prototype.forward = async function (this: Forwarder, ...args: Parameters<Forwarder['forward']>) {
    const m = current;
    if (m) m.fwdIn = performance.now();
    try {
      return await forward.apply(this, args);
    } finally {
      if (m) m.fwdOut = performance.now();
    }
  } as Forwarder['forward'];
  const answer = PlacesSearchService.prototype.answer;
  PlacesSearchService.prototype.answer = async function (this: PlacesSearchService, ...args: Parameters<PlacesSearchService['answer']>) {
    const m = current;
    const t0 = performance.now();
    try {
      return await answer.apply(this, args);
    } finally {
      if (m) m.searchMs = performance.now() - t0;
    }
  } as PlacesSearchService['answer'];
  const runsHere = SearchThreads.prototype.runsHere;
  SearchThreads.prototype.runsHere = function (this: SearchThreads) {
    const here = runsHere.apply(this);
    if (current) current.here = here;
    return here;
  };
  const end = ServerResponse.prototype.end;
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
    const m = byResponse.get(this);
    if (m) m.end0 = performance.now();
    const out = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (m) m.end1 = performance.now();
    return out;
  } as ServerResponse['end'];
}

async function main(): Promise<void> {
  const stages: Record<string, number[]> = {};
  const args = process.argv.slice(2);
  const dataDir = args.includes('--data-dir') ? args[args.indexOf('--data-dir') + 1] : undefined;
  const { port, queries, close } = await startSampleServer('gateway-stages', 'error', (app) => instrument(app, stages), dataDir);
  for (const k of Object.keys(stages)) delete stages[k]; // the warm-up's
  const client: Record<string, unknown> = {};
  for (const target of ['query', 'health', 'regions'] as const) client[target] = await viaClient(port, queries, 1, target);
  console.log(`client's view, concurrency 1: ${JSON.stringify(client)}\n`);
  console.log('| stage | p50 ms | p95 ms | n |\n|---|---|---|---|');
  for (const [name, ms] of Object.entries(stages)) {
    const p = percentiles(ms);
    console.log(`| ${name.trim()} | ${p.p50} | ${p.p95} | ${p.n} |`);
  }
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
