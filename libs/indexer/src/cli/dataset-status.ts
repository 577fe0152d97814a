import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';

/** One live dataset of a country: what the status check prints. */
export interface LiveDataset {
  format: string;
  /** The file, folder or URL it was imported from. */
  source: string;
  checksum?: string;
  /** When it went live (ISO). */
  since: string;
  version: string;
  /** The country's documents in that version (a change batch: the documents it wrote). */
  docs: number;
}

/** country -> dataset kind -> the live one. */
export type DatasetStatus = Record<string, Record<string, LiveDataset>>;

/** Per engine: a SQLite file and an OpenSearch cluster fed from one data dir are separate stores. */
export function statusPath(config: AppConfig): string {
  return join(config.DATA_DIR, `datasets.${config.PROFILE === 'distributed' ? 'opensearch' : 'sqlite'}.json`);
}

export function readStatus(path: string): DatasetStatus {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DatasetStatus) : {};
}

/** Records a dataset that just went live (written whole, then renamed: a reader never sees half). */
export function recordLive(path: string, country: string, kind: string, d: LiveDataset): void {
  const s = readStatus(path);
  s[country] = { ...s[country], [kind]: d };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(s, null, 2));
  renameSync(`${path}.tmp`, path);
}

/** `npm run import -- status`: one line per country and dataset. */
export function statusLines(s: DatasetStatus): string[] {
  const countries = Object.keys(s).sort();
  if (!countries.length) return ['no dataset imported yet (npm run import -- <kind> <country> <file>; see README "Importing official data")'];
  const lines: string[] = [];
  for (const cc of countries) {
    for (const [kind, d] of Object.entries(s[cc]!).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`${cc} ${kind.padEnd(15)} live since ${d.since}  ${d.format}  version ${d.version}  ${d.docs} documents  from ${d.source}`);
    }
  }
  return lines;
}
