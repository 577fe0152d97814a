import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { AppConfig } from '@lookup/shared/config';
import { ComposedPostalCodes, createDatasetStatus, createPlacesStore, dataDirImportLock, FileDatasetStatus, PlacesStore } from '@lookup/places';
import { BusinessStore, createBusinessStore } from '@lookup/business';
import { DatasetUpdatedEvent, eventMsgId, parseDatasetEvent } from '../datasets/dataset-event';
import { publishDatasetEvent } from '../datasets/dataset-stream';
import { datasetSubjects } from '../datasets/datasets.constants';
import { askProgress } from '../datasets/import-progress';
import { ChangeBatchRunner, ChangeRunReport, forgetAppliedChanges, ruianChangeStatePath, skChangeStatePath } from '../changes';
import { DatasetRunner, DatasetRunReport } from '../pipeline';
import { checkLocalInput, DatasetImportArgs, ImportUsageError, parseDatasetArgs } from './import-args';
import { ProgressOutput, progressReporter } from './progress';
import { resolveOfficialUrl } from './official-source';
import { DatasetStatus, layerDocs, nothingNew, readStatus, recordLive, statusAfterRun, statusLines, statusPath } from './dataset-status';
import { failureLines, queueLines, waitForIndexer } from './import-wait';
import { natsServers } from '@lookup/shared/transport';
import { createOpenSearchClient, heldImportLeases } from '@lookup/shared/search';

export interface DatasetImportDeps {
  /** Report lines (stdout). */
  out: (line: string) => void;
  /** Where progress goes (stderr: a bar on a terminal, JSON lines otherwise). */
  progress: ProgressOutput;
  /** Tests pass their own stores and broker connection; the CLI opens the profile's. */
  places?: PlacesStore;
  business?: BusinessStore;
  nats?: NatsConnection;
  progressLogEveryMs?: number;
}

/** The old catalogue form is `catalogue <country> --option ...`; everything else is a dataset command. */
export function isDatasetCommand(argv: string[]): boolean {
  return argv[0] !== 'catalogue' || (argv[2] !== undefined && !argv[2].startsWith('--'));
}

/** `npm run import -- <kind> <country> <file|url> ...`: validate, then publish (distributed) or import in-process (standalone). */
export async function runDatasetImport(argv: string[], config: AppConfig, deps: DatasetImportDeps): Promise<void> {
  if (argv[0] === 'status' && argv.length === 1) {
    // The profile's status store: the data dir's file (standalone) or `<INDEX_PREFIX>-datasets` (distributed).
    const status = createDatasetStatus(config);
    try {
      const live = await status.read();
      for (const l of statusLines(live)) deps.out(l);
      // Distributed: what the indexer gave up on since (its dead letters), so a failed import is seen here too,
      // then what it is importing and what waits for it.
      if (config.PROFILE === 'distributed') for (const l of await indexerLines(config, deps, live)) deps.out(l);
    } finally {
      await status.close();
    }
    return;
  }
  const args = parseDatasetArgs(argv);
  if (args.official) {
    args.location = await resolveOfficialUrl(args.country, args.kind, config);
    deps.out(`${args.country} ${args.kind}: the current official file is ${args.location}`);
  }
  const local = args.isUrl ? null : await checkLocalInput(args);
  // The file's own time, so publishing the same file again is a duplicate JetStream drops (msg id: checksum + published-at).
  const event = datasetEvent(args, local?.checksum ?? args.checksum, local?.modifiedAt ?? new Date().toISOString(), config.PROFILE === 'distributed' && args.force);
  if (config.PROFILE === 'distributed' && !args.dryRun) return publish(event, config, deps, args.waitS);
  return importInProcess(event, args, config, deps);
}

/** `force`: the indexer is to take it (`--force` in the distributed profile; in-process the runner is told directly). */
function datasetEvent(args: DatasetImportArgs, checksum: string | undefined, publishedAt: string, force: boolean): DatasetUpdatedEvent {
  const plain = { country: args.country, kind: args.kind, format: args.format, location: args.location, publishedAt, ...(checksum ? { checksum } : {}), ...(force ? { force } : {}) };
  try {
    return parseDatasetEvent(plain);
  } catch (err) {
    throw new ImportUsageError(`invalid dataset event: ${(err as Error).message}`);
  }
}

/** The indexer's failures after what is live and the events it has not finished, or a line saying why they are not known. */
async function indexerLines(config: AppConfig, deps: DatasetImportDeps, live: DatasetStatus): Promise<string[]> {
  let nc: NatsConnection | undefined;
  try {
    nc = deps.nats ?? (await connect({ servers: natsServers(config.NATS_URL), name: 'import-cli', timeout: 5000 }));
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    const progress = () => askProgress(nc!, config.NATS_SUBJECT_PREFIX);
    return [...(await failureLines(jsm, config.NATS_SUBJECT_PREFIX, live)), ...(await queueLines(jsm, config.NATS_SUBJECT_PREFIX, undefined, progress)), ...(await runningLines(config))];
  } catch (err) {
    return [`(the indexer's failures and queue are not known: ${(err as Error).message})`];
  } finally {
    if (nc && !deps.nats) await nc.close();
  }
}

/**
 * The imports running now, by their leases in `<INDEX_PREFIX>-import-locks` (the indexer's runs
 * and the ones started from a shell, as `lookup import catalogue` is), or why they are not known.
 */
async function runningLines(config: AppConfig): Promise<string[]> {
  const client = createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: config.OPENSEARCH_TIMEOUT_MS });
  try {
    const held = await heldImportLeases(client, config.INDEX_PREFIX);
    return held.map((h) => `${h.scope.replace(':', ' ').padEnd(18)} RUNNING since ${h.startedAt}: ${h.command}  (pid ${h.pid} on ${h.host})`);
  } catch (err) {
    return [`(the imports running are not known: ${(err as Error).message})`];
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Publishes the event for the indexer; with `waitS`, then waits (that long at most) for its outcome. */
async function publish(event: DatasetUpdatedEvent, config: AppConfig, deps: DatasetImportDeps, waitS?: number): Promise<void> {
  const prefix = config.NATS_SUBJECT_PREFIX;
  const s = datasetSubjects(prefix);
  const nc = deps.nats ?? (await connect({ servers: natsServers(config.NATS_URL), name: 'import-cli', timeout: 5000 }));
  try {
    // The indexer app creates the stream; without it the event would have nowhere to go.
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    await jsm.streams.info(s.stream).catch(() => {
      throw new Error(`stream ${s.stream} does not exist on ${config.NATS_URL}: start the indexer app (it creates the stream) and run this again`);
    });
    const ack = await publishDatasetEvent(nc, prefix, event);
    const id = eventMsgId(event);
    deps.out(
      ack.duplicate
        ? `already published (JetStream dropped the duplicate): stream ${s.stream}, subject ${s.updated}, msg id ${id}, seq ${ack.seq}; ` +
          `the msg id is the file's checksum and modification time, so to import this same file again: touch ${event.location} and run this again`
        : `published datasets.updated: stream ${s.stream}, subject ${s.updated}, msg id ${id}, seq ${ack.seq}; the indexer imports it`,
    );
    if (waitS !== undefined) {
      const status = createDatasetStatus(config);
      try {
        await waitForIndexer(event, ack, waitS, { jsm, prefix, readStatus: () => status.read(), out: deps.out, progress: () => askProgress(nc, prefix) });
      } finally {
        await status.close();
      }
    }
  } finally {
    if (!deps.nats) await nc.close();
  }
}

async function importInProcess(event: DatasetUpdatedEvent, args: DatasetImportArgs, config: AppConfig, deps: DatasetImportDeps): Promise<void> {
  const places = deps.places ?? createPlacesStore(config);
  let lock: { release(): void } | null = null;
  try {
    lock = dataDirImportLock(places, config.sqlitePath, `${args.kind} ${args.country} ${args.location}`, { dryRun: args.dryRun });
    await importLocked(event, args, config, { ...deps, places });
  } finally {
    lock?.release();
    if (!deps.places) await places.close();
  }
}

/** `deps.places`: the store to import into (opened here, closed by its owner). */
async function importLocked(event: DatasetUpdatedEvent, args: DatasetImportArgs, config: AppConfig, deps: DatasetImportDeps & { places: PlacesStore }): Promise<void> {
  const places = deps.places;
  const business = deps.business ?? (event.kind === 'business' ? createBusinessStore(config) : undefined);
  await places.init();
  await business?.init();
  const downloadDir = config.DOWNLOAD_DIR ?? join(config.DATA_DIR, 'downloads');
  // The runners download into a temp folder made inside this one.
  if (args.isUrl) await mkdir(downloadDir, { recursive: true });
  const live = event.kind === 'addresses' || event.kind === 'catalogue' ? await places.liveVersion(event.country) : null;
  const bar = progressReporter(deps.progress, { label: `${event.country} ${event.kind}`, logEveryMs: deps.progressLogEveryMs, expectedDocs: live?.docs });
  // A line of its own after the bar, which goes on below it.
  const line = (l: string) => {
    bar.finish();
    deps.out(l);
  };
  try {
    const opts = { dryRun: args.dryRun, force: args.force, onProgress: (p: { docs: number; bytes?: number; totalBytes?: number }) => bar.update(p), onWait: line, onStep: (m: string) => bar.step(m) };
    const skBaseline = () => {
      const live = readStatus(statusPath(config))['SK']?.['addresses'];
      return live && existsSync(live.source) ? live.source : undefined;
    };
    const changes = new ChangeBatchRunner({ places, statePath: skChangeStatePath(config), ruianStatePath: ruianChangeStatePath(config), downloadDir, downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS, skBaseline });
    const report = changes.handles(event)
      ? await changes.run(event, opts)
      : await new DatasetRunner({ places, business, config, downloadDir, downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS, status: new FileDatasetStatus(statusPath(config)) }).run(event, opts);
    bar.finish();
    if (!args.dryRun) {
      const live = { format: event.format, source: event.location, ...(event.checksum ? { checksum: event.checksum } : {}), since: new Date().toISOString(), version: report.version, docs: report.docs, ...layerDocs(report) };
      const path = statusPath(config);
      recordLive(path, event.country, event.kind, statusAfterRun(readStatus(path)[event.country]?.[event.kind], report, live));
      // A new address version: the change state described the old one (SK re-seeds it from this file at the next batch).
      if (event.kind === 'addresses') forgetAppliedChanges(config, event.country);
    }
    // A dry run writes nothing into the data directory: its list goes to the system's temp folder.
    const listDir = args.dryRun ? join(tmpdir(), 'lookup-import-reports') : join(config.DATA_DIR, 'import-reports');
    const allErrors = report.errors.length > SHOWN_ERRORS ? writeErrorList(listDir, event, report.errors) : undefined;
    for (const line of reportLines(report, args.dryRun, places.engine, allErrors)) deps.out(line);
  } finally {
    // Also on failure: the error message must start on a line of its own, not after the bar.
    bar.finish();
    if (business && !deps.business) await business.close();
  }
}

/** Errors printed with a run's summary; the rest go to a file (writeErrorList). */
const SHOWN_ERRORS = 20;
/** Error lists kept in a folder (the newest). */
const KEPT_ERROR_LISTS = 20;

/**
 * Writes every error of a run (as many as the run kept) into `dir` (`<DATA_DIR>/import-reports`),
 * one a line, and returns the file's path; only the newest KEPT_ERROR_LISTS lists are kept.
 */
export function writeErrorList(dir: string, event: Pick<DatasetUpdatedEvent, 'country' | 'kind' | 'location'>, errors: string[]): string {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${event.country}-${event.kind}-${stamp}-${process.pid}.txt`);
  writeFileSync(path, [`# ${event.kind} ${event.country} ${event.location}: ${errors.length} messages`, ...errors, ''].join('\n'));
  const lists = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const old of lists.slice(KEPT_ERROR_LISTS)) rmSync(join(dir, old.f), { force: true });
  return path;
}

/** Where a catalogue version's postal codes came from (it replaced the live ones). */
export function postalCodesLine(country: string, p: ComposedPostalCodes): string {
  return `  postal codes: ${p.file} from the file, ${p.register} derived from the ${country} addresses (${p.both} in both: the register's own kept)`;
}

/** The run's summary, the first errors, and how many more there were (and the file holding them all, when given). */
export function reportLines(r: DatasetRunReport | ChangeRunReport, dryRun: boolean, engine: string, allErrorsAt?: string): string[] {
  const what = `${r.country} ${r.kind} (${r.format})`;
  const lines =
    'changes' in r
      ? [`${what}: ${r.changes.records} records (${r.changes.newRecords} new), ${r.changes.upserts} documents upserted, ${r.changes.deletes} deleted${dryRun ? ' (dry run: nothing written)' : ` in ${engine}`}, ${r.skipped} skipped, ${r.seconds.toFixed(1)} s`]
      : dryRun
        ? [`${what}: dry run: ${r.docs} documents read, ${r.skipped} skipped, ${r.errors.length} errors; nothing written (${r.seconds.toFixed(1)} s)`]
        : [`${what}: version ${r.version} live in ${engine}: ${r.docs} documents, ${r.skipped} skipped (previous: ${r.previous ? `${r.previous.version} with ${r.previous.docs}` : 'none'}) in ${r.seconds.toFixed(1)} s`];
  if (!('changes' in r) && r.postalCodes) lines.push(postalCodesLine(r.country, r.postalCodes));
  if ('changes' in r && !dryRun && nothingNew(r)) lines.push('  note: nothing new: every record of this batch was applied before and nothing was written; `import status` still shows the last batch that changed something');
  for (const n of r.notes) lines.push(`  note: ${n}`);
  for (const e of r.errors.slice(0, SHOWN_ERRORS)) lines.push(`  reported: ${e}`);
  if (r.errors.length > SHOWN_ERRORS) lines.push(`  ... and ${r.errors.length - SHOWN_ERRORS} more${allErrorsAt ? `: all ${r.errors.length} in ${allErrorsAt}` : ''}`);
  return lines;
}
