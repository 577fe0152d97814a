import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { ruianChangeStatePath } from './ruian-change-applier';
import { PlaceDoc, PlacesStore, planSkChanges, readSkChangeBatch, SkChangeState } from '@lookup/places';

/** Where a change batch writes: the live places index (upsert and delete by place_id). */
export interface PlaceChangeSink {
  upsert(docs: PlaceDoc[]): Promise<void>;
  remove(placeIds: string[]): Promise<void>;
}

export interface ChangeBatchReport {
  country: 'SK';
  batch: string;
  /** Records of the batch, and how many were new to the remembered register. */
  records: number;
  newRecords: number;
  upserts: number;
  deletes: number;
  skipped: number;
  errors: string[];
  seconds: number;
  dryRun: boolean;
}

/** Documents per store call: small enough for one bulk request, large enough to amortise the refresh. */
const WRITE_CHUNK = 2000;

/** The live places store as a sink. */
export function storeChangeSink(store: PlacesStore): PlaceChangeSink {
  return { upsert: (docs) => store.upsert(docs), remove: (ids) => store.remove(ids) };
}

/** One state file per store: standalone SQLite and each OpenSearch prefix remember their own register. */
export function skChangeStatePath(config: AppConfig): string {
  const which = config.PROFILE === 'distributed' ? `opensearch-${config.INDEX_PREFIX}` : 'sqlite';
  return join(config.DATA_DIR, `sk-register-changes.${which.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`);
}

/**
 * Applies Slovak Register adries change batches (`zmenova davka` XML, or a zip/folder of them)
 * to the live index without a rebuild: the documents the batch changes are upserted, the ones it
 * ends are deleted, everything else is left alone. The index is written first and the state
 * committed after, so a crash in between repeats the same writes on the next attempt; applying
 * a batch twice writes nothing the second time. The first batch set applied to an empty state
 * (normally the init batches) writes every document once.
 */
export async function applySkChangeBatch(o: {
  sink: PlaceChangeSink;
  statePath: string;
  sources: string[];
  /** Batches a full import wrote into the store that the state does not hold yet (the first change batch after `addresses SK`): compared with, not written. */
  baseline?: string[];
  /** The store's live SK regions, counties and municipalities: the areas the batch derives keep their names, links and positions. */
  liveCatalogue?: PlaceDoc[];
  asOf?: Date;
  dryRun?: boolean;
  onProgress?: (p: { docs: number }) => void;
}): Promise<ChangeBatchReport> {
  const t0 = process.hrtime.bigint();
  const records = await readSkChangeBatch(o.sources);
  const state = new SkChangeState(o.statePath).open();
  try {
    const baseline = o.baseline?.length ? await readSkChangeBatch(o.baseline) : [];
    const plan = planSkChanges(state, records, o.asOf, o.liveCatalogue, baseline);
    const name = o.sources.map((s) => basename(s)).join(',');
    if (!o.dryRun) {
      let written = 0;
      for (let i = 0; i < plan.upserts.length; i += WRITE_CHUNK) {
        const chunk = plan.upserts.slice(i, i + WRITE_CHUNK);
        await o.sink.upsert(chunk);
        o.onProgress?.({ docs: (written += chunk.length) });
      }
      for (let i = 0; i < plan.deletes.length; i += WRITE_CHUNK) await o.sink.remove(plan.deletes.slice(i, i + WRITE_CHUNK));
      state.commit([...plan.baseline.records, ...plan.newRecords], [...plan.baseline.hashes, ...plan.hashes], plan.deletes, { name, records: plan.records, newRecords: plan.newRecords.length, upserts: plan.upserts.length, deletes: plan.deletes.length });
    }
    return {
      country: 'SK',
      batch: name,
      records: plan.records,
      newRecords: plan.newRecords.length,
      upserts: plan.upserts.length,
      deletes: plan.deletes.length,
      skipped: plan.skipped,
      errors: plan.errors,
      seconds: Number(process.hrtime.bigint() - t0) / 1e9,
      dryRun: !!o.dryRun,
    };
  } finally {
    state.close();
  }
}

/**
 * After a new address version of the country went live: the change state remembers what was
 * applied to the version it replaced (SK: the register the batches were folded with; CZ: the
 * addresses' transactions, which would make the same file "nothing new"), so it goes and the
 * batches can be applied to the new version (the next SK batch re-seeds it from the new file).
 */
export function forgetAppliedChanges(config: AppConfig, country: string): void {
  if (country === 'SK') rmSync(skChangeStatePath(config), { force: true });
  if (country === 'CZ') rmSync(ruianChangeStatePath(config), { force: true });
}
