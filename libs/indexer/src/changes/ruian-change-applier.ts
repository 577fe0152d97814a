import { basename, join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { docHash, PlaceDoc, placeId, PlacesStore, readVfrRecords, resolveVfrAddress, RuianAddressBuilder, RuianVfrState } from '@lookup/places';
import type { PlaceChangeSink } from './sk-change-applier';

export interface RuianChangeReport {
  country: 'CZ';
  batch: string;
  /** Records read (addresses, buildings, streets, parts, municipalities, MOMC/MOP, ended elements). */
  records: number;
  /** Addresses of the batch already applied (same or older `IdTransakce` than the remembered one). */
  alreadyApplied: number;
  /** Addresses of the batch applied now (written, deleted, or found unchanged). */
  applied: number;
  upserts: number;
  deletes: number;
  /** Addresses that got a field from the stored document because no change file named the reference. */
  resolvedFromStore: number;
  /** Records with a bad value and addresses that could not be resolved (each described in `errors`). */
  skipped: number;
  errors: string[];
  seconds: number;
  dryRun: boolean;
}

/** Addresses per round: one bulk write, and few enough stored documents read at once. */
const CHUNK = 500;
const MAX_ERRORS = 1000;

/** One state file per store, like the SK one. */
export function ruianChangeStatePath(config: AppConfig): string {
  const which = config.PROFILE === 'distributed' ? `opensearch-${config.INDEX_PREFIX}` : 'sqlite';
  return join(config.DATA_DIR, `ruian-vfr-changes.${which.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`);
}

/**
 * Applies RUIAN VFR change files (the daily `ST_UZSZ` increments; a file, zip or folder) to the
 * live CZ index without a rebuild: changed and new address points are upserted as the document
 * a full import of the monthly CSV gives for them, ended ones (`vf:ZaniklePrvky` AD, `PlatiDo`,
 * `Nespravny`) deleted by place id. The whole file is read and staged before anything is written,
 * so a corrupt or truncated file fails with nothing written; the state is committed only after
 * the index holds the writes, so a crash repeats the same writes. An address whose
 * `IdTransakce` was already applied is left alone: the same batch twice writes nothing.
 *
 * Derived streets, postal codes and municipality weights/centroids are not touched (they need
 * the whole register): they catch up at the next full import.
 */
export async function applyRuianVfrBatch(o: {
  store: Pick<PlacesStore, 'get'>;
  sink: PlaceChangeSink;
  statePath: string;
  sources: string[];
  dryRun?: boolean;
  onProgress?: (p: { docs: number }) => void;
}): Promise<RuianChangeReport> {
  const t0 = process.hrtime.bigint();
  const report: RuianChangeReport = {
    country: 'CZ', batch: o.sources.map((s) => basename(s)).join(','), records: 0, alreadyApplied: 0, applied: 0, upserts: 0, deletes: 0,
    resolvedFromStore: 0, skipped: 0, errors: [], seconds: 0, dryRun: !!o.dryRun,
  };
  let dropped = 0;
  const error = (m: string) => {
    report.skipped++;
    if (report.errors.length < MAX_ERRORS) report.errors.push(m);
    else dropped++;
  };
  const state = new RuianVfrState(o.statePath).open();
  try {
    state.begin();
    for (const source of o.sources) {
      for await (const r of readVfrRecords(source, (e) => error(`${e.source} line ${e.line}: ${e.message}`))) {
        report.records++;
        state.stage(r);
      }
    }
    const municipalities = new Map<string, PlaceDoc | null>();
    const builder = new RuianAddressBuilder((id) => municipalities.get(id) ?? undefined, (m) => report.errors.length < MAX_ERRORS && report.errors.push(m));
    let written = 0;
    for (let after = '', rows = state.pending(after, CHUNK); rows.length; after = rows[rows.length - 1]!.kod, rows = state.pending(after, CHUNK)) {
      const upserts: PlaceDoc[] = [];
      const deletes: string[] = [];
      const remembered: [string, number, string | null][] = [];
      for (const p of rows) {
        const known = state.address(p.kod);
        if (known && known.tx >= p.tx) {
          report.alreadyApplied++;
          continue;
        }
        const id = placeId('CZ', 'address', p.kod);
        if (!p.rec) {
          report.applied++;
          deletes.push(id);
          remembered.push([p.kod, p.tx, null]);
          continue;
        }
        const existing = await o.store.get(id);
        const res = resolveVfrAddress(p.rec, state, existing);
        if ('error' in res) {
          error(res.error);
          continue;
        }
        if (res.fromStore.length) report.resolvedFromStore++;
        const mid = placeId('CZ', 'municipality', res.row.municipalityCode);
        if (!municipalities.has(mid)) municipalities.set(mid, await o.store.get(mid));
        if (!municipalities.get(mid) && !res.row.municipalityName) {
          error(`AdresniMisto ${p.kod}: Obec ${res.row.municipalityCode} has no name (not in the change files, the catalogue or the stored document)`);
          continue;
        }
        const doc = builder.build(res.row);
        const hash = docHash(doc);
        report.applied++;
        remembered.push([p.kod, p.tx, hash]);
        if (known?.hash !== hash) upserts.push(doc);
      }
      if (!o.dryRun) {
        if (upserts.length) await o.sink.upsert(upserts);
        if (deletes.length) await o.sink.remove(deletes);
        for (const [kod, tx, hash] of remembered) state.setAddress(kod, tx, hash);
      }
      report.upserts += upserts.length;
      report.deletes += deletes.length;
      o.onProgress?.({ docs: (written += upserts.length + deletes.length) });
    }
    if (dropped) report.errors.push(`... and ${dropped} more errors`);
    if (o.dryRun) state.rollback();
    else state.commit({ name: report.batch, records: report.records, upserts: report.upserts, deletes: report.deletes });
    report.seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return report;
  } catch (err) {
    state.rollback();
    throw err;
  } finally {
    state.close();
  }
}
