import { readFileSync } from 'node:fs';
import { COUNTRY_CODES, CountryCode } from '@lookup/contracts';
import { DATASET_KINDS, DatasetKind } from '../datasets/dataset-event';

/** One official dataset the scheduler watches. */
export interface ScheduledSource {
  country: CountryCode;
  kind: DatasetKind;
  /** The importer (`ruian-csv`, `sk-register-xml`, ...), passed on in the event. */
  format: string;
  url: string;
  /** Where the publisher lists the file's sha256 (a `*.sha256` file: the first 64 hex digits count). */
  checksumUrl?: string;
}

export class SchedulerConfigError extends Error {}

/** `SCHEDULER_SOURCES`: inline JSON (starts with `[`) or the path of a JSON file. */
export function loadScheduledSources(setting: string): ScheduledSource[] {
  const text = setting.trim();
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text.startsWith('[') ? text : readFileSync(text, 'utf8'));
  } catch (err) {
    throw new SchedulerConfigError(`SCHEDULER_SOURCES: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new SchedulerConfigError('SCHEDULER_SOURCES: must be a JSON array of sources');
  return raw.map((s, i) => parseSource(s, i));
}

function parseSource(s: unknown, i: number): ScheduledSource {
  const bad = (m: string) => new SchedulerConfigError(`SCHEDULER_SOURCES[${i}].${m}`);
  if (typeof s !== 'object' || s === null) throw new SchedulerConfigError(`SCHEDULER_SOURCES[${i}]: must be an object`);
  const o = s as Record<string, unknown>;
  if (!COUNTRY_CODES.includes(o['country'] as CountryCode)) throw bad(`country: one of ${COUNTRY_CODES.join(', ')}`);
  if (!DATASET_KINDS.includes(o['kind'] as DatasetKind)) throw bad(`kind: one of ${DATASET_KINDS.join(', ')}`);
  if (typeof o['format'] !== 'string' || !o['format']) throw bad('format: required');
  for (const k of ['url', 'checksumUrl'] as const) {
    if (o[k] === undefined && k === 'checksumUrl') continue;
    if (typeof o[k] !== 'string' || !/^https?:\/\//.test(o[k] as string)) throw bad(`${k}: an http(s) URL`);
  }
  const out: ScheduledSource = { country: o['country'] as CountryCode, kind: o['kind'] as DatasetKind, format: o['format'] as string, url: o['url'] as string };
  if (o['checksumUrl']) out.checksumUrl = o['checksumUrl'] as string;
  return out;
}

/** The key a source's state is remembered under. */
export function sourceKey(s: ScheduledSource): string {
  return `${s.country}:${s.kind}:${s.format}:${s.url}`;
}
