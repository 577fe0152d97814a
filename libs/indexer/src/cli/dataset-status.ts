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

/** `layerDocs` for the status entry: the documents the run's dataset gave, when the version holds others too (carried). */
export function layerDocs(r: { docs: number; loaded: number; version: string }): { layerDocs?: number } {
  return r.version !== 'incremental' && r.loaded !== r.docs ? { layerDocs: r.loaded } : {};
}
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
    const live = liveVersion(s[cc]!);
    for (const [kind, d] of Object.entries(s[cc]!).sort(([a], [b]) => a.localeCompare(b))) {
      // A layer's own documents, with the version's when it holds others; a version a later import of the other layer replaced is named with the live one.
      const docs = d.version === 'incremental' ? `${d.docs} documents changed` : d.layerDocs !== undefined ? `${d.layerDocs} documents (${d.docs} in the version)` : `${d.docs} documents`;
      const carried = live && d.version !== 'incremental' && d.version !== live.version && BUILT_TOGETHER.has(kind) && d.since < live.since ? `, carried into ${live.version}` : '';
      lines.push(`${cc} ${kind.padEnd(15)} live since ${d.since}  ${d.format}  version ${d.version}${carried}  ${docs}  from ${d.source}`);
      if (d.sample && (kind === 'addresses' || kind === 'catalogue')) lines.push(`   ${' '.repeat(15)} not official data: ${officialImportCommand(cc as CountryCode, kind)} replaces the whole ${cc} sample`);
    }
  }
  return lines;
}

/** The kinds that share a country's places version: a run of one carries the others into its new version. */
const BUILT_TOGETHER = new Set(['addresses', 'catalogue', 'postal-codes']);

/** The newest version a run of those kinds put live for the country (none when it has none on record). */
function liveVersion(kinds: Record<string, LiveDataset>): LiveDataset | undefined {
  let newest: LiveDataset | undefined;
  for (const [kind, d] of Object.entries(kinds)) if (BUILT_TOGETHER.has(kind) && d.version !== 'incremental' && (!newest || d.since > newest.since)) newest = d;
  return newest;
}
