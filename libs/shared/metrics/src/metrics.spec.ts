import 'reflect-metadata';
import { Agent, request } from 'node:http';
import Fastify, { FastifyInstance } from 'fastify';
import { of, throwError, lastValueFrom } from 'rxjs';
import { CallHandler, ExecutionContext } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { DomainError, ErrorTypes, toErrorBody } from '@lookup/contracts';
import { LookupMetrics, metrics } from './metrics.registry';
import { errorTypeOf, httpOneClient, httpRequestsInFlight, registerHttpMetrics, registerMetricsRoute } from './http-metrics';
import { measureTransport } from './transport-metrics';
import { timeEngine, timeEngineSync } from './engine-metrics';
import { IndexerProgress } from './indexer-metrics';
import { RpcMetricsInterceptor } from './rpc-metrics.interceptor';

/** A `/hold` route whose answer waits for `release()`; `inside` resolves once a request is in it. */
function holdRoute(server: FastifyInstance): { inside: Promise<void>; release: () => void } {
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  let entered = () => undefined as void;
  const inside = new Promise<void>((r) => (entered = r));
  server.get('/hold', async () => {
    entered();
    await held;
    return { ok: true };
  });
  return { inside, release: () => release() };
}

/** `GET path` on a loopback port through `agent`: the status, once the answer has been read. */
function getOn(port: number, agent: Agent, path: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** The value of one sample line of the text format, e.g. `name{a="b"} 3`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{')) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const have = inner.split(',');
    if (want.every((w) => have.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function valueOf(metric: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val)).reduce((a, v) => a + v.value, 0);
}

describe('HTTP metrics', () => {
  let app: FastifyInstance;
  const m = new LookupMetrics(false);

  beforeAll(async () => {
    app = Fastify();
    registerHttpMetrics(app, m);
    registerMetricsRoute(app, m);
    app.post('/v1/places/:place_id', async (req, reply) => {
      const id = (req.params as { place_id: string }).place_id;
      if (id === 'missing') return reply.status(404).send(toErrorBody(DomainError.notFound('place_id', 'Place').toEnvelope()));
      if (id === 'spent') return reply.status(400).send(toErrorBody(new DomainError(ErrorTypes.overQueryLimit, 'spent').toEnvelope()));
      return { place_id: id };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('counts requests, errors and quota rejections per route template, not per URL', async () => {
    for (const id of ['cz_1', 'cz_2', 'missing', 'spent']) await app.inject({ method: 'POST', url: `/v1/places/${id}` });
    await app.inject({ method: 'GET', url: '/no/such/route/123' });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    const route = '/v1/places/:place_id';
    expect(sample(text, 'lookup_http_requests_total', { route, status: '200' })).toBe(2);
    expect(sample(text, 'lookup_http_requests_total', { route, status: '404' })).toBe(1);
    expect(sample(text, 'lookup_http_errors_total', { route, status: '404', type: 'invalid_request' })).toBe(1);
    expect(sample(text, 'lookup_http_errors_total', { route, status: '400', type: 'over_query_limit' })).toBe(1);
    expect(sample(text, 'lookup_quota_rejections_total', { route })).toBe(1);
    expect(sample(text, 'lookup_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'lookup_http_request_duration_seconds_count', { route, method: 'POST' })).toBe(4);
    expect(text).not.toContain('cz_1');
    // Scrapes are not counted as traffic.
    expect(text).not.toContain('route="/metrics"');
  });

  it('counts the requests begun and not yet answered, errors included', async () => {
    const counts: number[] = [];
    const other = Fastify();
    registerHttpMetrics(other, m);
    const { inside, release } = holdRoute(other);
    other.get('/count', async () => {
      counts.push(httpRequestsInFlight());
      return { ok: true };
    });
    other.get('/fail', async () => {
      throw new Error('boom');
    });
    await other.ready();
    try {
      const before = httpRequestsInFlight();
      const holding = other.inject({ method: 'GET', url: '/hold' });
      await inside;
      await other.inject({ method: 'GET', url: '/count' });
      release();
      expect((await holding).statusCode).toBe(200);
      expect((await other.inject({ method: 'GET', url: '/fail' })).statusCode).toBe(500);
      await other.inject({ method: 'GET', url: '/count' });
      // While /hold was open, /count saw itself and it; afterwards only itself.
      expect(counts).toEqual([before + 2, before + 1]);
      expect(httpRequestsInFlight()).toBe(before);
    } finally {
      await other.close();
    }
  });

  /** A listening server with `/hold` (holdRoute) and `/one`, which notes httpOneClient(50) in `seen`. */
  async function oneClientServer() {
    const seen: boolean[] = [];
    const server = Fastify();
    registerHttpMetrics(server, m);
    const { inside, release } = holdRoute(server);
    server.get('/one', async () => {
      seen.push(httpOneClient(50));
      return { ok: true };
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    return { server, port: (server.server.address() as { port: number }).port, seen, inside, release };
  }

  it('tells when one client has had the server to itself: every request lately on one kept-alive connection, none other open', async () => {
    const { server, port, seen, inside, release } = await oneClientServer();
    const get = (agent: Agent, path: string) => getOn(port, agent, path);
    const a = new Agent({ keepAlive: true, maxSockets: 1 });
    const b = new Agent({ keepAlive: true, maxSockets: 1 });
    const pause = () => new Promise((r) => setTimeout(r, 80));
    try {
      await get(a, '/one'); // a new connection: not yet
      await pause();
      await get(a, '/one'); // the same connection, alone for longer than 50 ms
      await get(b, '/one'); // another client's connection
      await pause();
      await get(a, '/one'); // back to the first: a change of connection starts the count again
      await pause();
      await get(a, '/one');
      const holding = get(b, '/hold');
      await inside;
      await get(a, '/one'); // while another client's request is still open
      release();
      expect(await holding).toBe(200);
      expect(seen).toEqual([false, true, false, false, true, false]);
    } finally {
      a.destroy();
      b.destroy();
      await server.close();
    }
  });

  it('stops counting a request whose client left before its answer, so one client can have the server to itself again', async () => {
    const { server, port, seen, inside, release } = await oneClientServer();
    const a = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) => getOn(port, a, path);
    try {
      const before = httpRequestsInFlight();
      // An autocomplete widget's request for a key the user has already typed past: dropped.
      const dropped = request({ host: '127.0.0.1', port, path: '/hold' });
      dropped.on('error', () => undefined);
      dropped.end();
      await inside;
      expect(httpRequestsInFlight()).toBe(before + 1);
      dropped.destroy();
      for (let i = 0; i < 250 && httpRequestsInFlight() !== before; i++) await new Promise((r) => setTimeout(r, 20));
      expect(httpRequestsInFlight()).toBe(before);
      // Its answer, written after the client left, counts nothing twice.
      release();
      await get('/one');
      await new Promise((r) => setTimeout(r, 80));
      await get('/one');
      expect(httpRequestsInFlight()).toBe(before);
      expect(seen).toEqual([false, true]);
    } finally {
      a.destroy();
      await server.close();
    }
  });

  it('reads the error type from a compat body and nothing else', () => {
    expect(errorTypeOf('{"error":{"type":"timeout"}}')).toBe('timeout');
    expect(errorTypeOf(Buffer.from('{"error":{"type":"api_error"}}'))).toBe('api_error');
    expect(errorTypeOf('{"error":"x"}')).toBe('unknown');
    expect(errorTypeOf('not json')).toBe('unknown');
    expect(errorTypeOf(undefined)).toBe('unknown');
  });
});

describe('transport metrics', () => {
  it('tells timeouts and missing responders apart from other failures', async () => {
    const m = metrics();
    const subject = `test.transport.${Date.now()}`;
    await measureTransport(subject, async () => 1);
    await expect(measureTransport(subject, () => Promise.reject(new DomainError(ErrorTypes.timeout, 'late', null, 504)))).rejects.toThrow('late');
    await expect(measureTransport(subject, () => Promise.reject(new DomainError(ErrorTypes.serviceUnavailable, 'gone', null, 503)))).rejects.toThrow('gone');
    await expect(measureTransport(subject, () => Promise.reject(DomainError.notFound('place_id', 'Place')))).rejects.toThrow();
    expect(await valueOf(m.transportRequests, { subject, outcome: 'ok' })).toBe(1);
    expect(await valueOf(m.transportRequests, { subject, outcome: 'timeout' })).toBe(1);
    expect(await valueOf(m.transportRequests, { subject, outcome: 'no_responder' })).toBe(1);
    expect(await valueOf(m.transportRequests, { subject, outcome: 'error' })).toBe(1);
    expect(await valueOf(m.transportTimeouts, { subject })).toBe(1);
    expect(await valueOf(m.transportNoResponders, { subject })).toBe(1);
    const text = await m.render();
    expect(sample(text, 'lookup_transport_request_duration_seconds_count', { subject })).toBe(4);
  });
});

describe('engine and indexer hooks', () => {
  it('times engine calls with their outcome', async () => {
    const m = metrics();
    expect(await timeEngine('testengine', 'search', async () => 'hits')).toBe('hits');
    await expect(timeEngine('testengine', 'search', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(timeEngineSync('testengine', 'get', () => 7)).toBe(7);
    const text = await m.render();
    expect(sample(text, 'lookup_engine_request_duration_seconds_count', { engine: 'testengine', operation: 'search', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'lookup_engine_request_duration_seconds_count', { engine: 'testengine', operation: 'search', outcome: 'error' })).toBe(1);
    expect(sample(text, 'lookup_engine_request_duration_seconds_count', { engine: 'testengine', operation: 'get', outcome: 'ok' })).toBe(1);
  });

  it('reports indexer progress, documents and the last success', async () => {
    const m = metrics();
    const run = new IndexerProgress('test-dataset', 200);
    run.written(50);
    expect(await valueOf(m.indexerProgress, { dataset: 'test-dataset' })).toBeCloseTo(0.25);
    run.written(150);
    run.succeeded(1_700_000_000_000);
    expect(await valueOf(m.indexerDocuments, { dataset: 'test-dataset' })).toBe(200);
    expect(await valueOf(m.indexerProgress, { dataset: 'test-dataset' })).toBe(1);
    expect(await valueOf(m.indexerLastSuccess, { dataset: 'test-dataset' })).toBe(1_700_000_000);
    new IndexerProgress('test-dataset').failed();
    expect(await valueOf(m.indexerRuns, { dataset: 'test-dataset', outcome: 'failed' })).toBe(1);
  });
});

describe('RPC handler metrics', () => {
  function contextFor(subject: string): ExecutionContext {
    const handler = () => undefined;
    Reflect.defineMetadata(PATTERN_METADATA, [subject], handler);
    return { getType: () => 'rpc', getHandler: () => handler } as unknown as ExecutionContext;
  }

  it('counts handled messages per subject, client errors apart from server errors', async () => {
    const m = metrics();
    const subject = `test.rpc.${Date.now()}`;
    const i = new RpcMetricsInterceptor();
    await lastValueFrom(i.intercept(contextFor(subject), { handle: () => of({ ok: 1 }) } as CallHandler));
    const fail = (err: unknown) => lastValueFrom(i.intercept(contextFor(subject), { handle: () => throwError(() => err) } as CallHandler));
    await expect(fail(DomainError.invalidParameter('country', 'no'))).rejects.toBeInstanceOf(DomainError);
    await expect(fail(new TypeError('bug'))).rejects.toBeInstanceOf(TypeError);
    expect(await valueOf(m.rpcHandled, { subject, outcome: 'ok' })).toBe(1);
    expect(await valueOf(m.rpcHandled, { subject, outcome: 'client_error' })).toBe(1);
    expect(await valueOf(m.rpcHandled, { subject, outcome: 'server_error' })).toBe(1);
    expect(sample(await m.render(), 'lookup_rpc_duration_seconds_count', { subject })).toBe(3);
  });

  it('exports process metrics (event loop lag, memory) on the shared registry', async () => {
    const text = await metrics().render();
    expect(text).toContain('lookup_nodejs_eventloop_lag_seconds');
    expect(text).toContain('lookup_process_resident_memory_bytes');
  });
});
