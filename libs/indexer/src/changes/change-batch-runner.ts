import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CATALOGUE_OBJECTS, PlacesStore } from '@lookup/places';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { fetchDataset } from '../download/fetch-dataset';
import { DatasetProgress, DatasetRunOptions, DatasetRunReport, importLeaseCommand, placesLease, verifyChecksum, waitedNotes, withImportLease } from '../pipeline/dataset-runner';
import { PermanentDatasetError } from '../pipeline/importers';
import { fileError } from '../pipeline/file-errors';
import { applyRuianVfrBatch } from './ruian-change-applier';
import { applySkChangeBatch, storeChangeSink } from './sk-change-applier';

/** Change-batch formats, by the country whose register they change. */
export const CHANGE_FORMATS: Record<string, 'SK' | 'CZ'> = { 'sk-register-xml': 'SK', 'ruian-vfr': 'CZ' };

export interface ChangeRunReport extends DatasetRunReport {
  /** `newRecords`: SK records the state did not have; CZ addresses applied now (not applied by an earlier run). */
  changes: { records: number; newRecords: number; upserts: number; deletes: number };
}

/**
 * The `address-changes` events: applied to the live index in place (no new version: a change
 * batch is small and its writes are idempotent), with the same report shape as DatasetRunner so
 * the indexer's handler and the CLI treat both alike. `version` is `incremental`; `docs` counts
 * the documents written (upserted + deleted).
 */
export class ChangeBatchRunner {
  constructor(
    private readonly deps: {
      places: PlacesStore;
      statePath: string;
      /** The RUIAN (CZ) change state; default `ruian-vfr-<name of statePath>` beside the SK one. */
      ruianStatePath?: string;
      downloadDir?: string;
      downloadTimeoutMs?: number;
      /**
       * The SK address file live in the store (the status check's), if any. A change batch met
       * with no change state yet is folded together with it, so its entrances find their
       * buildings, streets and municipalities (the state is seeded once; twice = once still).
       */
      skBaseline?: () => string | undefined | Promise<string | undefined>;
    },
  ) {}

  /** The register the store holds from a full import, when the state does not know it yet (see applySkChangeBatch's `baseline`). */
  private async skBaseline(batch: string): Promise<string[] | undefined> {
    const base = existsSync(this.deps.statePath) ? undefined : await this.deps.skBaseline?.();
    return base && base !== batch ? [base] : undefined;
  }

  handles(e: Pick<DatasetUpdatedEvent, 'kind'>): boolean {
    return e.kind === 'address-changes';
  }

  async run(event: DatasetUpdatedEvent, opts: DatasetRunOptions = {}): Promise<ChangeRunReport> {
    const t0 = Date.now();
    if (CHANGE_FORMATS[event.format] !== event.country) {
      throw new PermanentDatasetError(`format: no change-batch reader for "${event.format}" of ${event.country} (known: ${Object.entries(CHANGE_FORMATS).map(([f, c]) => `${f} (${c})`).join(', ')})`);
    }
    const local = await this.localFile(event);
    try {
      if (event.checksum) await verifyChecksum(local.path, event.checksum);
      opts.heartbeat?.();
      const onProgress = (p: DatasetProgress) => {
        opts.heartbeat?.();
        opts.onProgress?.(p);
      };
      const places = this.deps.places;
      // Written into the live version: a version build of the country running meanwhile would switch the changes away, so it waits for it (and it for them).
      let waitedMs = 0;
      // A batch that cannot be read fails the same way on every try (fileError: permanent, named), as a full import's file does.
      const permanent = !/^https?:\/\//i.test(event.location) || !!event.checksum;
      const r = await withImportLease(placesLease(places, event.country), importLeaseCommand(event), opts, async (_held, waited) => {
        waitedMs = waited;
        try {
          return event.format === 'ruian-vfr'
            ? await this.applyRuian(local.path, !!opts.dryRun, onProgress)
            : await applySkChangeBatch({
                sink: storeChangeSink(this.deps.places),
                statePath: this.deps.statePath,
                sources: [local.path],
                baseline: await this.skBaseline(local.path),
                liveCatalogue: (await Promise.all(CATALOGUE_OBJECTS.map((o) => this.deps.places.list('SK', o)))).flat(),
                dryRun: opts.dryRun,
                onProgress,
              });
        } catch (err) {
          throw fileError(err, event.location, permanent);
        }
      });
      const notes = waitedNotes(waitedMs);
      return {
        country: event.country,
        kind: event.kind,
        format: event.format,
        version: opts.dryRun ? 'dry-run' : 'incremental',
        notes,
        docs: r.upserts + r.deletes,
        loaded: r.upserts + r.deletes,
        skipped: r.skipped,
        errors: r.errors,
        seconds: (Date.now() - t0 - waitedMs) / 1000,
        waitedSeconds: waitedMs / 1000,
        previous: null,
        changes: { records: r.records, newRecords: r.newRecords, upserts: r.upserts, deletes: r.deletes },
      };
    } finally {
      await local.cleanup();
    }
  }

  private async applyRuian(path: string, dryRun: boolean, onProgress: (p: DatasetProgress) => void) {
    const statePath = this.deps.ruianStatePath ?? join(dirname(this.deps.statePath), `ruian-vfr-${basename(this.deps.statePath)}`);
    const r = await applyRuianVfrBatch({ store: this.deps.places, sink: storeChangeSink(this.deps.places), statePath, sources: [path], dryRun, onProgress });
    return { ...r, newRecords: r.applied };
  }

  private async localFile(event: DatasetUpdatedEvent): Promise<{ path: string; cleanup(): Promise<void> }> {
    if (!/^https?:\/\//i.test(event.location)) {
      await stat(event.location).catch((err: NodeJS.ErrnoException) => {
        throw new PermanentDatasetError(`location: ${event.location} ${err.code === 'ENOENT' ? 'does not exist' : err.message}`);
      });
      return { path: event.location, cleanup: async () => undefined };
    }
    const root = this.deps.downloadDir ?? tmpdir();
    await mkdir(root, { recursive: true });
    const dir = await mkdtemp(join(root, 'changes-'));
    try {
      const r = await fetchDataset(event.location, { dir, timeoutMs: this.deps.downloadTimeoutMs ?? 30000, checksum: event.checksum });
      return { path: r.path!, cleanup: () => rm(dir, { recursive: true, force: true }) };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      if ((err as { permanent?: boolean }).permanent) throw new PermanentDatasetError((err as Error).message);
      throw err;
    }
  }
}
