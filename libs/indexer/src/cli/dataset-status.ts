import { AppConfig } from '@lookup/shared/config';
import { DatasetStatus, LiveDataset } from '@lookup/shared/runtime';
import { datasetStatusPath, readStatusFile, recordStatusFile } from '@lookup/places';

export type { DatasetStatus, LiveDataset };

/** The standalone status file (`<DATA_DIR>/datasets.<engine>.json`); the stores: `createDatasetStatus` in @lookup/places. */
export function statusPath(config: AppConfig): string {
  return datasetStatusPath(config);
}

export const readStatus = readStatusFile;
export const recordLive = recordStatusFile;

/**
 * `npm run import -- status`: one line per country and dataset. A change batch (version
 * `incremental`) counts the documents it wrote or deleted, not the country's: "changed".
 */
export function statusLines(s: DatasetStatus): string[] {
  const countries = Object.keys(s).sort();
  if (!countries.length) return ['no dataset imported yet (npm run import -- <kind> <country> <file>; see README "Importing official data")'];
  const lines: string[] = [];
  for (const cc of countries) {
    for (const [kind, d] of Object.entries(s[cc]!).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`${cc} ${kind.padEnd(15)} live since ${d.since}  ${d.format}  version ${d.version}  ${d.docs} documents${d.version === 'incremental' ? ' changed' : ''}  from ${d.source}`);
    }
  }
  return lines;
}
