import { AppConfig } from '@lookup/shared/config';
import { DatasetStatus, LiveDataset } from '@lookup/shared/runtime';
import { datasetStatusPath, readStatusFile, recordStatusFile } from '@lookup/places';
import { CountryCode } from '@lookup/contracts';
import { officialImportCommand } from '../pipeline/bundled-sample';

export type { DatasetStatus, LiveDataset };

/** The standalone status file (`<DATA_DIR>/datasets.<engine>.json`); the stores: `createDatasetStatus` in @lookup/places. */
export function statusPath(config: AppConfig): string {
  return datasetStatusPath(config);
}

export const readStatus = readStatusFile;

/** What a change run (kind `address-changes`) did, as far as the status cares. */
export interface ChangeRunOutcome {
  docs: number;
  changes: { newRecords: number };
}

/**
 * Whether a change run brought nothing new: every record of it was applied before and it wrote
 * nothing (the same batch again). Such a run leaves the status describing the last batch that
 * changed something; a batch with new records, or one that rewrote documents, replaces it.
 */
export function nothingNew(r: ChangeRunOutcome): boolean {
  return r.changes.newRecords === 0 && r.docs === 0;
}

/**
 * The status entry a run leaves for its country and kind: `next`, unless it is a change run that
 * brought nothing new and a batch is on record; then that batch's entry stays (with the run's
 * event id, which `import --wait` looks for, in the distributed profile).
 */
export function statusAfterRun(previous: LiveDataset | undefined, run: DatasetRunReportLike, next: LiveDataset): LiveDataset {
  if (!previous || !('changes' in run) || !nothingNew(run)) return next;
  return next.event ? { ...previous, event: next.event } : previous;
}

type DatasetRunReportLike = { docs: number } | ChangeRunOutcome;
export const recordLive = recordStatusFile;

/**
 * `npm run import -- status`: one line per country and dataset. A change batch (version
 * `incremental`) counts the documents it wrote or deleted, not the country's: "changed". A layer
 * of the bundled sample says which official import replaces it (and with it the whole sample).
 */
export function statusLines(s: DatasetStatus): string[] {
  const countries = Object.keys(s).sort();
  if (!countries.length) return ['no dataset imported yet (npm run import -- <kind> <country> <file>; see README "Importing official data")'];
  const lines: string[] = [];
  for (const cc of countries) {
    for (const [kind, d] of Object.entries(s[cc]!).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`${cc} ${kind.padEnd(15)} live since ${d.since}  ${d.format}  version ${d.version}  ${d.docs} documents${d.version === 'incremental' ? ' changed' : ''}  from ${d.source}`);
      if (d.sample && (kind === 'addresses' || kind === 'catalogue')) lines.push(`   ${' '.repeat(15)} not official data: ${officialImportCommand(cc as CountryCode, kind)} replaces the whole ${cc} sample`);
    }
  }
  return lines;
}
