import { existsSync } from 'node:fs';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, NatsConnection } from 'nats';
import { AppConfig, nestLogger } from '@lookup/shared/config';
import { IMPORT_STATUS, SERVICE_READINESS, ServiceHealthController } from '@lookup/shared/runtime';
import { IndexerProgress, registerMetricsRoute } from '@lookup/shared/metrics';
import { createDatasetStatus, createPlacesStore, PlacesStore } from '@lookup/places';
import { BusinessStore, createBusinessStore } from '@lookup/business';
import { DatasetConsumer, DatasetJob } from '../datasets/dataset-consumer';
import { eventMsgId } from '../datasets/dataset-event';
import { ensureDatasetStream } from '../datasets/dataset-stream';
import { answerProgress, ImportProgress, progressText } from '../datasets/import-progress';
import { ChangeBatchRunner, forgetAppliedChanges, ruianChangeStatePath, skChangeStatePath } from '../changes';
import { createDatasetScheduler } from '../scheduler';
import { DatasetRunner } from '../pipeline/dataset-runner';
import { DatasetStatus, layerDocs, statusAfterRun } from '../cli/dataset-status';
import { natsServers } from '@lookup/shared/transport';

/** The indexer's own settings (environment), each checked with a message naming it. */
export interface IndexerSettings {
  /** How long a run may go without a heartbeat before JetStream redelivers its event. */
  ackWaitMs: number;
  maxDeliver: number;
  retryDelayMs: number;
  /** Fraction of the live version's documents a new one may lose without `force`. */
  maxDrop: number;
  /** How long shutdown waits for the current run before leaving it unacked (redelivered later). */
  drainMs: number;
}

function envNumber(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`Invalid parameter ${name}: must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

export function indexerSettings(env: Record<string, string | undefined>): IndexerSettings {
  return {
    ackWaitMs: envNumber(env, 'DATASET_ACK_WAIT_MS', 60_000, 1000, 3_600_000),
    maxDeliver: envNumber(env, 'DATASET_MAX_DELIVER', 3, 1, 100),
    retryDelayMs: envNumber(env, 'DATASET_RETRY_DELAY_MS', 30_000, 0, 3_600_000),
    maxDrop: envNumber(env, 'DATASET_MAX_DROP', 0.1, 0, 1),
    drainMs: envNumber(env, 'DATASET_DRAIN_MS', 25_000, 0, 3_600_000),
  };
}

export interface RunningIndexer {
  app: NestFastifyApplication;
  /** Stops pulling, waits up to `drainMs` for the current run, then closes everything. */
  close(): Promise<void>;
}

/**
 * The indexer process: the durable pull consumer with the DatasetRunner as handler, and an
 * HTTP port with `/health`, `/health/ready` (NATS connected, stores answering) and `/metrics`.
 */
export async function startIndexer(config: AppConfig, settings: IndexerSettings): Promise<RunningIndexer> {
  const log = new Logger('indexer');
  const nc: NatsConnection = await connect({ servers: natsServers(config.NATS_URL), name: 'indexer', timeout: 5000 });
  const prefix = config.NATS_SUBJECT_PREFIX;
  await ensureDatasetStream(nc, { prefix, ackWaitMs: settings.ackWaitMs, maxDeliver: settings.maxDeliver });
  const places: PlacesStore = createPlacesStore(config);
  const business: BusinessStore = createBusinessStore(config);
  await places.init();
  await business.init();
  // What is live, per country and kind: written after each run, shown on /health/ready and by `npm run import -- status`.
  const status = createDatasetStatus(config);
  // The runner reads it too: an address version removes the change batches it does not hold from it.
  const runner = new DatasetRunner({ places, business, config, status, maxDrop: settings.maxDrop, heartbeatMs: Math.max(200, Math.floor(settings.ackWaitMs / 4)) });
  // Change batches (SK zmenova davka, RUIAN VFR) are applied in place; full datasets get a new version.
  const changes = new ChangeBatchRunner({
    places, statePath: skChangeStatePath(config), ruianStatePath: ruianChangeStatePath(config), downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS,
    // The live SK address file, where this indexer can read it: an SK change batch met with no change state is folded with it (as in standalone).
    skBaseline: async () => {
      const live = (await status.read())['SK']?.['addresses'];
      return live && existsSync(live.source) ? live.source : undefined;
    },
  });
  // What is being imported now: answered to `import ... --wait` and `import status` (answerProgress), logged every PROGRESS_LOG_MS.
  let current: ImportProgress | null = null;
  let startedAt = 0;
  const progressNow = () => (current ? { ...current, seconds: (Date.now() - startedAt) / 1000 } : null);
  const progressAnswers = answerProgress(nc, prefix, progressNow);
  const handler = async (job: DatasetJob) => {
    const dataset = `${job.event.country.toLowerCase()}-${job.event.kind}`;
    const progress = new IndexerProgress(dataset);
    let written = 0;
    current = { event: eventMsgId(job.event), dataset, fraction: null, docs: 0, seconds: 0 };
    startedAt = Date.now();
    let logged = startedAt;
    try {
      const r = await (changes.handles(job.event) ? changes : runner).run(job.event, {
        heartbeat: job.heartbeat,
        force: job.event.force === true,
        onWait: (m) => log.log(`dataset ${dataset}: ${m}`),
        onStep: (m) => log.log(`dataset ${dataset}: ${m}`),
        onProgress: (p) => {
          if (p.docs > written) progress.written(p.docs - written);
          if (p.totalBytes && p.bytes !== undefined) progress.read(p.bytes / p.totalBytes);
          written = Math.max(written, p.docs);
          if (current) {
            current.docs = written;
            if (p.totalBytes && p.bytes !== undefined) current.fraction = Math.min(1, p.bytes / p.totalBytes);
          }
          if (Date.now() - logged >= PROGRESS_LOG_MS) {
            logged = Date.now();
            const now = progressNow();
            if (now) log.log(`dataset ${dataset}: ${progressText(now)}`);
          }
        },
      });
      progress.succeeded();
      const e = job.event;
      // A new address version: the change state described the old one (SK re-seeds it from this file at the next batch).
      if (e.kind === 'addresses') forgetAppliedChanges(config, e.country);
      const live = { format: e.format, source: e.location, ...(e.checksum ? { checksum: e.checksum } : {}), since: new Date().toISOString(), version: r.version, docs: r.docs, ...layerDocs(r), ...withNotes(reportedNotes(r)), event: eventMsgId(e) };
      // A change batch that brought nothing new leaves the last one that changed something on record (with this event's id, for --wait).
      const previous = 'changes' in r ? (await status.read().catch(() => ({}) as DatasetStatus))[e.country]?.[e.kind] : undefined;
      await status
        .record(e.country, e.kind, statusAfterRun(previous, r, live))
        .catch((err: unknown) => log.warn(`dataset ${dataset}: live, but its status was not recorded: ${(err as Error).message}`));
      log.log(`dataset ${dataset} version ${r.version} live: ${r.docs} documents (${r.skipped} skipped, previous ${r.previous ? `${r.previous.version} with ${r.previous.docs}` : 'none'}) in ${r.seconds.toFixed(1)} s`);
      for (const m of r.errors.slice(0, LOGGED_ERRORS)) log.warn(`dataset ${dataset}: reported: ${m}`);
      if (r.errors.length > LOGGED_ERRORS) log.warn(`dataset ${dataset}: ... and ${r.errors.length - LOGGED_ERRORS} more reported`);
    } catch (err) {
      progress.failed();
      throw err;
    } finally {
      current = null;
    }
  };
  const logLine = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => {
    const line = fields ? `${msg} ${JSON.stringify(fields)}` : msg;
    if (level === 'error') log.error(line);
    else if (level === 'warn') log.warn(line);
    else log.log(line);
  };
  const consumer = new DatasetConsumer(nc, handler, { prefix, maxDeliver: settings.maxDeliver, retryDelayMs: settings.retryDelayMs, log: logLine });
  // Off unless SCHEDULER_ENABLED: checks the official sources and publishes events for what changed.
  const scheduler = createDatasetScheduler(config, nc, logLine);
  scheduler?.start();
  const loop = consumer.run().catch((err: unknown) => log.error(`consumer stopped: ${(err as Error).message}`));

  @Module({
    controllers: [ServiceHealthController],
    providers: [
      {
        provide: SERVICE_READINESS,
        useValue: async () => {
          if (nc.isClosed()) throw new Error('NATS connection closed');
          await places.ping();
          await business.ping();
        },
      },
      { provide: IMPORT_STATUS, useValue: () => status.read() },
    ],
  })
  class IndexerModule {}

  const app = await NestFactory.create<NestFastifyApplication>(IndexerModule, new FastifyAdapter({ logger: false }), { logger: nestLogger(config) });
  registerMetricsRoute(app.getHttpAdapter().getInstance());
  await app.listen(config.PORT, config.HOST);
  log.log(`indexer consuming ${prefix}.datasets.updated on ${config.NATS_URL}, probes on :${config.PORT}`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      consumer.stop();
      await scheduler?.stop();
      // Let the current run finish; past the drain time it is left unacked and JetStream redelivers it.
      await Promise.race([loop, new Promise((r) => setTimeout(r, settings.drainMs).unref())]);
      await app.close();
      progressAnswers.unsubscribe();
      await nc.drain().catch(() => undefined);
      await places.close().catch(() => undefined);
      await business.close().catch(() => undefined);
      await status.close().catch(() => undefined);
    })());
  return { app, close };
}

/** Messages of a run the indexer logs (the first ones; the CLI's standalone run prints as many). */
const LOGGED_ERRORS = 20;
/** How often a running import's progress is logged at info level. */
const PROGRESS_LOG_MS = 30_000;

/**
 * What `import --wait` prints after the live line (recorded with the status entry): the run's
 * notes, and how many source rows it skipped or reported, with the first three messages.
 */
export function reportedNotes(r: { notes: string[]; skipped: number; errors: string[] }): string[] {
  const out = [...r.notes];
  if (r.skipped || r.errors.length) {
    const first = r.errors.slice(0, 3).join(' | ');
    out.push(`${r.skipped} skipped, ${r.errors.length} reported${first ? `, the first: ${first}` : ''}; the indexer's log lists the first ${LOGGED_ERRORS}`);
  }
  return out;
}

function withNotes(notes: string[]): { notes?: string[] } {
  return notes.length ? { notes } : {};
}
