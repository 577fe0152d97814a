import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MetricNames } from './metrics.constants';

/** Seconds; spans a cached keystroke answer (~1 ms) to a transport timeout (5 s and more). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every metric the apps export, on one registry per process. One process may host several
 * Nest apps (standalone, tests), and prom-client refuses a name registered twice, so the
 * registry is created once and shared; each app only adds its `/metrics` route.
 */
export class LookupMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: MetricNames.httpRequests,
    help: 'HTTP requests answered, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: MetricNames.httpDuration,
    help: 'HTTP request latency (first byte in to last byte out), by route template.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly httpErrors = new Counter({
    name: MetricNames.httpErrors,
    help: 'HTTP answers with status >= 400, by route and error type of the compat body.',
    labelNames: ['method', 'route', 'status', 'type'] as const,
    registers: [this.registry],
  });

  readonly quotaRejections = new Counter({
    name: MetricNames.quotaRejections,
    help: 'Requests refused because the key spent its monthly quota (over_query_limit).',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly transportRequests = new Counter({
    name: MetricNames.transportRequests,
    help: 'Gateway -> service requests, by subject and outcome (ok, error, timeout, no_responder).',
    labelNames: ['subject', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly transportDuration = new Histogram({
    name: MetricNames.transportDuration,
    help: 'Gateway -> service round trip, by subject.',
    labelNames: ['subject'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly transportTimeouts = new Counter({
    name: MetricNames.transportTimeouts,
    help: 'Transport requests that got no answer within their timeout (504).',
    labelNames: ['subject'] as const,
    registers: [this.registry],
  });

  readonly transportNoResponders = new Counter({
    name: MetricNames.transportNoResponders,
    help: 'Transport requests nobody was listening for (503).',
    labelNames: ['subject'] as const,
    registers: [this.registry],
  });

  readonly rpcHandled = new Counter({
    name: MetricNames.rpcHandled,
    help: 'Messages handled by this service, by subject and outcome (ok, client_error, server_error).',
    labelNames: ['subject', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly rpcDuration = new Histogram({
    name: MetricNames.rpcDuration,
    help: 'Handler time in this service, by subject.',
    labelNames: ['subject'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly engineDuration = new Histogram({
    name: MetricNames.engineDuration,
    help: 'Search engine / store call latency, by engine, operation and outcome.',
    labelNames: ['engine', 'operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly indexerDocuments = new Counter({
    name: MetricNames.indexerDocuments,
    help: 'Documents written by the indexer, by dataset.',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  readonly indexerProgress = new Gauge({
    name: MetricNames.indexerProgress,
    help: 'Progress of the running import, 0..1, by dataset (1 when done).',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  readonly indexerRuns = new Counter({
    name: MetricNames.indexerRuns,
    help: 'Finished imports, by dataset and outcome (ok, failed).',
    labelNames: ['dataset', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly indexerLastSuccess = new Gauge({
    name: MetricNames.indexerLastSuccess,
    help: 'Unix time of the last successful import, by dataset.',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  readonly indexerRunning = new Gauge({
    name: MetricNames.indexerRunning,
    help: '1 while an import of the dataset runs (the current run), else 0.',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  readonly indexerRate = new Gauge({
    name: MetricNames.indexerRate,
    help: 'Documents per second of the running (or last) import, by dataset.',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  constructor(withProcessMetrics = true) {
    // CPU, memory, event-loop lag, GC: what explains a latency spike.
    if (withProcessMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'lookup_' });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}

let shared: LookupMetrics | undefined;

/** The process-wide registry. */
export function metrics(): LookupMetrics {
  shared ??= new LookupMetrics();
  return shared;
}
