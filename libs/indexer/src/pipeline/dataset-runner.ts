import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CountryCode, PlaceObject } from '@lookup/contracts';
import { CATALOGUE_OBJECTS, CatalogueComposer, ComposedPostalCodes, DatasetStatusStore, PlaceDoc, PlacesSearchService, PlacesStore } from '@lookup/places';
import { BusinessDoc, BusinessStore } from '@lookup/business';
import { describeHolder, ImportLease, ImportLeaseOptions } from '@lookup/shared/search';
import { DatasetKind, DatasetUpdatedEvent } from '../datasets/dataset-event';
import { fetchDataset } from '../download';
import { BusinessImporter, DatasetImporter, ImportContext, ImporterReport, importerFor, LAYER_REPLACES, PermanentDatasetError, PlacesImporter, PlacesLayer } from './importers';
import { BundledSampleLayers, sampleRemovedNote } from './bundled-sample';
import { readingErrorsNamed } from './file-errors';
import { businessCanaries, checkCounts, noDocuments, placeCanaries, VerifyError } from './verify';

export interface DatasetRunReport {
  country: CountryCode;
  kind: DatasetKind;
  format: string;
  /** The version now live (`dry-run` when nothing was built). */
  version: string;
  /** The country's documents in the new version (for a catalogue dataset, with the carried addresses). */
  docs: number;
  /** The documents the dataset itself gave (the rest of `docs` was carried from the live version). */
  loaded: number;
  /** Source rows the importer could not use; `errors` describes them (capped). */
  skipped: number;
  errors: string[];
  /** What the user should know about the result: what is missing and which command fills it. */
  notes: string[];
  /** The run's time, less `waitedSeconds`. */
  seconds: number;
  /** How long it waited for another import of the same country (or register) to finish first. */
  waitedSeconds?: number;
  /** The version it replaced, null for the first one. */
  previous: { version: string; docs: number } | null;
  /** A catalogue with postal codes (GeoNames): how many its file gave, how many the carried addresses gave, and in both (the register's kept). */
  postalCodes?: ComposedPostalCodes;
}

export interface DatasetProgress {
  docs: number;
  bytes?: number;
  totalBytes?: number;
}

export interface DatasetRunOptions {
  onProgress?: (p: DatasetProgress) => void;
  /** Reads and counts the dataset without building or switching anything. */
  dryRun?: boolean;
  /** Switches even when the new version is much smaller than the live one. */
  force?: boolean;
  /** Called while making progress (the JetStream consumer's `working()`). */
  heartbeat?: () => void;
  /** Told when another import of the same country (or of the business register) runs: this one waits for it to end. */
  onWait?: (message: string) => void;
  /** Told each step after the writing (seal, verify, switch): minutes on a whole register, when no documents are written. */
  onStep?: (message: string) => void;
}

/** What an import's lease says it is doing (shown to an import that waits for it). */
export function importLeaseCommand(event: Pick<DatasetUpdatedEvent, 'country' | 'kind' | 'format' | 'location'>): string {
  return `import ${event.kind} ${event.country} (${event.format}) ${event.location}`;
}

/**
 * Runs `work` holding the store's import lease (engines without one: as is); a waiting import is
 * told who it waits for. `work` gets `assertHeld`, to call right before its switch.
 */
export async function withImportLease<T>(
  lock: ((command: string, opts: ImportLeaseOptions) => Promise<ImportLease>) | undefined,
  command: string,
  opts: Pick<DatasetRunOptions, 'onWait' | 'dryRun' | 'heartbeat'>,
  work: (assertHeld: () => void, waitedMs: number) => Promise<T>,
): Promise<T> {
  if (!lock || opts.dryRun) return work(() => undefined, 0);
  // Waiting is progress too: the event is not redelivered to another indexer meanwhile.
  const beat = opts.heartbeat ? setInterval(opts.heartbeat, 1000) : null;
  const t0 = Date.now();
  let waited = false;
  let lease: ImportLease;
  try {
    lease = await lock(command, {
      onWait: (h) => {
        waited = true;
        opts.onWait?.(`waiting for another import to finish: ${describeHolder(h)}`);
      },
    });
  } finally {
    if (beat) clearInterval(beat);
  }
  const waitedMs = waited ? Date.now() - t0 : 0;
  if (waited) opts.onWait?.(`the other import has finished after ${(waitedMs / 1000).toFixed(0)} s; starting`);
  try {
    return await work(() => lease.assertHeld(), waitedMs);
  } finally {
    await lease.release();
  }
}

/** A places store's lease for one country's imports, when the store has leases (OpenSearch). */
export function placesLease(places: PlacesStore, country: CountryCode): ((command: string, opts: ImportLeaseOptions) => Promise<ImportLease>) | undefined {
  return places.lockImports && ((c, o) => places.lockImports!(country, c, o));
}

/** What finishing a version needs of a places or business build. */
interface FinishableBuild<R> {
  carried: number;
  seal(): Promise<void>;
  count(): Promise<number>;
  withReader<T>(fn: (reader: R) => Promise<T>): Promise<T>;
  commit(): Promise<void>;
}

/**
 * The steps after the writing, each announced (`onStep`): seal the version, count and check it,
 * run the canary searches on it, then, still holding the lease, switch. Returns its document count.
 */
async function finishBuild<R>(
  build: FinishableBuild<R>,
  loaded: number,
  opts: Pick<DatasetRunOptions, 'heartbeat' | 'onStep'>,
  assertHeld: () => void,
  verify: { check(docs: number): void; canaries(reader: R): Promise<unknown> },
): Promise<number> {
  opts.heartbeat?.();
  opts.onStep?.(`${build.carried + loaded} documents written (${build.carried} carried from the live version); making the new version searchable`);
  await build.seal();
  const docs = await build.count();
  verify.check(docs);
  // Writes are upserts by place id: the file's own documents replace carried ones with the same id (a register's postal code over GeoNames').
  const replaced = build.carried + loaded - docs;
  opts.onStep?.(`verifying the new version: ${docs} documents${replaced > 0 ? ` (${replaced} written twice under one id: the later one kept)` : ''}, canary searches`);
  await build.withReader(verify.canaries);
  assertHeld();
  opts.onStep?.('switching to the new version, then removing the old one');
  await build.commit();
  return docs;
}

export interface DatasetRunnerDeps {
  places: PlacesStore;
  business?: BusinessStore;
  config: ImportContext['config'];
  /** A drop of more than this fraction of the live version's documents fails the run unless forced; default 0.1. */
  maxDrop?: number;
  /** Where http(s) datasets are downloaded to (removed after the run); default the OS temp dir. */
  downloadDir?: string;
  downloadTimeoutMs?: number;
  /** How often `heartbeat` is called while a run is alive; keep it well under the consumer's ack wait. Default 5 s. */
  heartbeatMs?: number;
  /**
   * The profile's import status, read for the layers the bundled sample put live (standalone):
   * a places import over a sample layer replaces the country's whole sample and removes its
   * entries here. Without it nothing is a sample (the distributed profile never has one).
   */
  status?: Pick<DatasetStatusStore, 'read' | 'remove'>;
}

/**
 * One dataset run: fetch (or take the local file), check the sha256, stream the importer into a
 * new version beside the live one, seal it, verify it (counts against the importer and the
 * previous version, canary searches on the new version only), then switch atomically. Any
 * failure aborts the build (the half-built version is deleted) and the live version keeps
 * serving; the error says why.
 */
export class DatasetRunner {
  private readonly maxDrop: number;

  constructor(private readonly deps: DatasetRunnerDeps) {
    this.maxDrop = deps.maxDrop ?? 0.1;
    if (!(this.maxDrop >= 0 && this.maxDrop <= 1)) throw new Error(`maxDrop must be a fraction between 0 and 1, got ${deps.maxDrop}`);
  }

  /** `importer`: the format's (default), or the catalogue command's own (several source files). */
  async run(event: DatasetUpdatedEvent, opts: DatasetRunOptions = {}, formatImporter: DatasetImporter = importerFor(event.format)): Promise<DatasetRunReport> {
    const t0 = Date.now();
    // An error reading the file is named by the file, and permanent unless it is a passing trouble
    // or the file is a download without a checksum (the next try downloads it again).
    const importer = readingErrorsNamed(formatImporter, event.location, !/^https?:\/\//i.test(event.location) || !!event.checksum);
    const notes: string[] = [];
    // A timer, not per batch: seal, verify and the catalogue or aggregate phases yield no batches
    // for a while; a killed process stops beating and JetStream redelivers the event.
    const beat = opts.heartbeat ? setInterval(opts.heartbeat, this.deps.heartbeatMs ?? 5000) : null;
    beat?.unref();
    let local: { path: string; bytes?: number; cleanup(): Promise<void> } | null = null;
    try {
      local = await this.localFile(event, opts);
      if (event.checksum) await verifyChecksum(local.path, event.checksum);
      let report: ImporterReport = { skipped: 0, errors: [] };
      // The fraction and ETA come from the source's bytes read, when the importer counts them
      // (never from a guess); after the reading they stay at 1 while the version is finished.
      let bytes: { read: number; total: number } | undefined;
      let docs = 0;
      const emit = () => opts.onProgress?.({ docs, ...(bytes ? { bytes: bytes.read, totalBytes: bytes.total } : {}) });
      const ctx: ImportContext = {
        path: local.path, source: { location: event.location, format: event.format }, country: event.country, config: this.deps.config, report: (r) => (report = r), note: (l) => notes.push(l),
        bytes: (read, total) => {
          bytes = { read: Math.max(read, bytes?.read ?? 0), total };
        },
      };
      const progress = (n: number) => {
        docs = n;
        emit();
      };
      const command = importLeaseCommand(event);
      const places = this.deps.places;
      const business = this.deps.business;
      // Held from reading the live version to the switch: a build of the same country (or, for the
      // business register, of any country) in another process waits, so neither drops the other's data.
      // The timer above beats while it waits: no second heartbeat.
      const leaseOpts = { onWait: opts.onWait, dryRun: opts.dryRun };
      let waitedMs = 0;
      const built =
        importer.target === 'places'
          ? await withImportLease(placesLease(places, event.country), command, leaseOpts, (held, w) => ((waitedMs = w), this.runPlaces(importer, ctx, progress, opts, () => report, held)))
          : await withImportLease(business?.lockImports && ((c, o) => business.lockImports!(c, o)), command, leaseOpts, (held, w) => ((waitedMs = w), this.runBusiness(importer, ctx, progress, opts, () => report, held)));
      notes.push(...waitedNotes(waitedMs));
      // `catalogue` and `postal-codes` each build the whole catalogue layer: the other one's entry is no longer what is live.
      if (!opts.dryRun && importer.target === 'places' && importer.layer === 'catalogue') await this.deps.status?.remove(event.country, event.kind === 'catalogue' ? 'postal-codes' : 'catalogue');
      const postalCodes = (built as { postalCodes?: ComposedPostalCodes }).postalCodes;
      // Register batches may hold only streets and areas (Slovakia's initial batches: entrances come with change batches).
      if (importer.target === 'places' && importer.layer === 'addresses' && event.kind === 'addresses' && report.addresses === 0) {
        notes.push(
          `no address points in this dataset: its streets and areas ${opts.dryRun ? 'would be' : 'were'} imported, address searches of ${event.country} find none yet` +
            (event.country === 'SK' ? '; Register adries change batches bring the entrances: npm run import -- address-changes SK <zmenova davka>' : ''),
        );
      }
      return {
        country: event.country,
        kind: event.kind,
        format: event.format,
        version: built.version,
        docs: built.docs,
        loaded: built.loaded,
        skipped: report.skipped,
        errors: report.errors,
        notes,
        seconds: (Date.now() - t0 - waitedMs) / 1000,
        waitedSeconds: waitedMs / 1000,
        previous: built.previous,
        ...(postalCodes ? { postalCodes } : {}),
      };
    } finally {
      if (beat) clearInterval(beat);
      await local?.cleanup();
    }
  }

  private async runPlaces(
    importer: PlacesImporter,
    ctx: ImportContext,
    progress: (docs: number) => void,
    opts: DatasetRunOptions,
    report: () => ImporterReport,
    assertHeld: () => void,
  ): Promise<{ version: string; docs: number; loaded: number; previous: DatasetRunReport['previous']; postalCodes?: ComposedPostalCodes }> {
    const store = this.deps.places;
    const previous = await store.liveVersion(ctx.country);
    const sample = new CanarySample<PlaceDoc>((d) => d.object === 'address', (d) => d.object === 'municipality', (d) => d.weight);
    // An official layer never composes with the bundled sample's other layer: the version then carries nothing of the live one.
    const bundled = new BundledSampleLayers(this.deps.status);
    const sampleLayers = await bundled.live(ctx.country);
    const other: PlacesLayer = importer.layer === 'addresses' ? 'catalogue' : 'addresses';
    const dropsSample = sampleLayers.includes(other);
    if (dropsSample) {
      ctx.replacesAll = true;
      ctx.note?.(sampleRemovedNote(ctx.country, other, !!opts.dryRun));
    }
    if (importer.layer === 'addresses' && !dropsSample) ctx.liveCatalogue = (await Promise.all(CATALOGUE_OBJECTS.map((o) => store.list(ctx.country, o)))).flat();
    if (opts.dryRun) {
      let n = 0;
      for await (const b of importer.docs(ctx)) progress((n += b.length));
      // The real run would be refused: the dry run says so too (and exits non-zero).
      if (n === 0) throw noDocuments(ctx.source, report().errors);
      return { version: 'dry-run', docs: n, loaded: n, previous };
    }
    // A catalogue is small: read whole, so the carried addresses can be re-linked to it on the way.
    const composer = importer.layer === 'catalogue' ? await composeCatalogue(ctx.country, importer.docs(ctx)) : null;
    // The progress counts the new version's documents: the carried ones (every address, for a catalogue), then the loaded ones.
    // A catalogue that brings postal codes owns them: the live ones are replaced, the addresses' derived again (CatalogueComposer).
    const replace: PlaceObject[] = composer?.ownsPostalCodes ? [...LAYER_REPLACES.catalogue, 'postal_code'] : LAYER_REPLACES[importer.layer];
    const build = await store.beginVersion({ country: ctx.country, replace: dropsSample ? 'all' : replace, carry: composer?.carry, onCarried: progress });
    let count: number;
    let loadedDocs: number;
    try {
      const docs = composer ? inBatches(composer.docs()) : importer.docs(ctx);
      const loaded = await build.load(sample.tap(docs), (n) => progress(build.carried + n));
      loadedDocs = loaded.docs;
      count = await finishBuild(build, loaded.docs, opts, assertHeld, {
        // Replacing the bundled sample is no drop: its invented rows are no measure of an official file.
        check: (docs) => checkCounts({ source: ctx.source, reported: report().errors, docs, loaded: loaded.docs, carried: build.carried, upserts: true, addresses: report().addresses, addressDocs: sample.first.length ? sample.count : undefined, previous: dropsSample ? null : previous, maxDrop: this.maxDrop, force: !!opts.force }),
        canaries: (reader) => placeCanaries(new PlacesSearchService(reader), ctx.country, sample.picks()),
      });
    } catch (err) {
      await build.abort();
      throw err;
    }
    // Live: the sample's layers this version replaced are no longer on record (the caller records its own).
    await bundled.forget(ctx.country, dropsSample ? sampleLayers : sampleLayers.filter((l) => l === importer.layer));
    if (importer.layer === 'addresses') await this.changesLeftBehind(ctx);
    // What it replaced, as status named it: the bundled sample, not the store's unversioned "legacy".
    return {
      version: build.version,
      docs: count,
      loaded: loadedDocs,
      previous: dropsSample && previous ? { ...previous, version: 'bundled sample' } : previous,
      ...(composer?.ownsPostalCodes ? { postalCodes: composer.postalCodes } : {}),
    };
  }

  /**
   * A new address version holds only its file: the change batches applied to the one it replaced
   * are not in it. Their status entry goes (status would say they are live) and a note says which
   * batch was the last and how to apply the batches again.
   */
  private async changesLeftBehind(ctx: ImportContext): Promise<void> {
    const status = this.deps.status;
    const applied = status && (await status.read())[ctx.country]?.['address-changes'];
    if (!status || !applied) return;
    await status.remove(ctx.country, 'address-changes');
    ctx.note?.(
      `the change batches applied to the previous version are not in this one (the last: ${applied.source}, applied ${applied.since}): ` +
        `apply those published after this file again: npx lookup import address-changes ${ctx.country} <batch>`,
    );
  }

  private async runBusiness(
    importer: BusinessImporter,
    ctx: ImportContext,
    progress: (docs: number) => void,
    opts: DatasetRunOptions,
    report: () => ImporterReport,
    assertHeld: () => void,
  ): Promise<{ version: string; docs: number; loaded: number; previous: DatasetRunReport['previous'] }> {
    const store = this.deps.business;
    if (!store) throw new PermanentDatasetError('this indexer has no business store configured');
    const previous = await store.liveVersion(ctx.country);
    if (opts.dryRun) {
      let n = 0;
      for await (const b of importer.docs(ctx)) progress((n += b.length));
      if (n === 0) throw noDocuments(ctx.source, report().errors);
      return { version: 'dry-run', docs: n, loaded: n, previous };
    }
    const sample = new CanarySample<BusinessDoc>(() => true, () => false);
    const build = await store.beginVersion(ctx.country);
    try {
      const loaded = await build.load(sample.tap(importer.docs(ctx)), progress);
      const docs = await finishBuild(build, loaded.docs, opts, assertHeld, {
        check: (n) => checkCounts({ source: ctx.source, reported: report().errors, docs: n, loaded: loaded.docs, carried: 0, previous, maxDrop: this.maxDrop, force: !!opts.force }),
        canaries: (reader) => businessCanaries(reader, sample.picks()),
      });
      return { version: build.version, docs, loaded: loaded.docs, previous };
    } catch (err) {
      await build.abort();
      throw err;
    }
  }

  private async localFile(event: DatasetUpdatedEvent, opts: DatasetRunOptions): Promise<{ path: string; bytes?: number; cleanup(): Promise<void> }> {
    if (!/^https?:\/\//i.test(event.location)) {
      const st = await stat(event.location).catch((err: NodeJS.ErrnoException) => {
        throw new PermanentDatasetError(`location: ${event.location} ${err.code === 'ENOENT' ? 'does not exist' : err.message}`);
      });
      return { path: event.location, bytes: st.isFile() ? st.size : undefined, cleanup: async () => undefined };
    }
    const dir = await mkdtemp(join(this.deps.downloadDir ?? tmpdir(), 'dataset-'));
    try {
      // fetchDataset checks the checksum itself and keeps the file only if it matches.
      const r = await fetchDataset(event.location, {
        dir,
        timeoutMs: this.deps.downloadTimeoutMs ?? 30000,
        checksum: event.checksum,
        onProgress: (bytes, totalBytes) => opts.onProgress?.({ docs: 0, bytes, totalBytes }),
      });
      if (!r.path) throw new Error(`location: ${event.location} answered 304 Not Modified to an unconditional request`);
      return { path: r.path, bytes: r.bytes, cleanup: () => rm(dir, { recursive: true, force: true }) };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      if ((err as { permanent?: boolean }).permanent) throw new PermanentDatasetError((err as Error).message);
      throw err;
    }
  }
}

/** What a run says about its wait for another import of the same data (nothing under a second). */
export function waitedNotes(waitedMs: number): string[] {
  return waitedMs >= 1000 ? [`waited ${(waitedMs / 1000).toFixed(0)} s for another import of the same data to finish (not counted in the time above)`] : [];
}

export async function verifyChecksum(path: string, expected: string): Promise<void> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  const actual = `sha256:${h.digest('hex')}`;
  if (actual !== expected.toLowerCase()) throw new PermanentDatasetError(`checksum: the file's is ${actual}, the event says ${expected}`);
}

/** Keeps a few documents of the new dataset (first, middle-ish, last seen) for the canary queries. */
class CanarySample<T> {
  first: T[] = [];
  count = 0;
  private last: T | null = null;
  private other: T | null = null;

  constructor(
    private readonly primary: (d: T) => boolean,
    private readonly secondary: (d: T) => boolean,
    /** Among secondary documents the one scoring highest is kept (the biggest municipality: its name is the least ambiguous). */
    private readonly score: (d: T) => number = () => 0,
  ) {}

  async *tap(batches: AsyncIterable<T[]>): AsyncGenerator<T[]> {
    for await (const b of batches) {
      for (const d of b) {
        if (this.primary(d)) {
          this.count++;
          if (this.first.length === 0) this.first.push(d);
          this.last = d;
        } else if (this.secondary(d) && (!this.other || this.score(d) > this.score(this.other))) this.other = d;
      }
      yield b;
    }
  }

  picks(): { primary: T[]; secondary: T[] } {
    const primary = [...this.first];
    if (this.last && this.last !== this.first[0]) primary.push(this.last);
    return { primary, secondary: this.other ? [this.other] : [] };
  }
}

export { VerifyError };

async function composeCatalogue(country: DatasetRunReport['country'], batches: AsyncIterable<PlaceDoc[]>): Promise<CatalogueComposer> {
  const docs: PlaceDoc[] = [];
  for await (const b of batches) docs.push(...b);
  return new CatalogueComposer(country, docs);
}

async function* inBatches(docs: PlaceDoc[], size = 2000): AsyncGenerator<PlaceDoc[]> {
  for (let i = 0; i < docs.length; i += size) yield docs.slice(i, i + size);
}
