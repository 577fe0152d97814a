import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { COUNTRY_CODES, CountryCode } from '@lookup/contracts';
import { DATASET_KINDS, DatasetKind } from '../datasets/dataset-event';
import { FORMATS, formatsFor } from './dataset-formats';

/** A bad command line or input: the CLI exits 2 with this message. */
export class ImportUsageError extends Error {}

/** `--wait` without `--wait-timeout`: two hours, more than a whole CZ register takes. */
export const DEFAULT_WAIT_TIMEOUT_S = 7200;

export const DATASET_USAGE = `Usage: npm run import -- <kind> <country> [file|folder|url] [--format f] [--checksum sha256:<hex>] [--dry-run] [--force] [--wait [--wait-timeout s]]
  kinds: ${DATASET_KINDS.join(', ')}
  formats: ${Object.entries(FORMATS)
    .map(([f, d]) => `${f} (${d.kinds.join('/')} ${d.countries.join('/')})`)
    .join(', ')}
  --dry-run  parse and validate the whole file, print counts and errors, write nothing
  --force    accept a version with far fewer documents than the live one
  --wait     (distributed) after publishing, wait until the indexer has made it live (exit 0) or
             given up on it (exit 1, with its reason); --wait-timeout: at most this many seconds
             (default ${DEFAULT_WAIT_TIMEOUT_S})
Standalone: imports in-process. PROFILE=distributed: publishes a datasets.updated event for the indexer.
The catalogue command keeps its own form: npm run import -- catalogue <country> --psc-list|--register|--geonames <file> [--dry-run] [--force]
What is live: npm run import -- status`;

export interface DatasetImportArgs {
  kind: DatasetKind;
  country: CountryCode;
  format: string;
  /** An absolute path, or an http(s) URL. */
  location: string;
  isUrl: boolean;
  /** No location was given: the current official file is to be resolved. */
  official?: boolean;
  /** `sha256:<hex>` given on the command line (checked against the file) or computed from it. */
  checksum?: string;
  dryRun: boolean;
  force: boolean;
  /** Distributed: wait for the indexer's outcome, at most this many seconds (undefined: do not wait). */
  waitS?: number;
}


const FLAGS = new Set(['--dry-run', '--force', '--wait']);
const VALUED = new Set(['--format', '--checksum', '--wait-timeout']);

/** Parses `<kind> <country> <location> [flags]`; every problem names the argument. */
export function parseDatasetArgs(argv: string[]): DatasetImportArgs {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (FLAGS.has(a)) flags.add(a);
    else if (VALUED.has(a)) {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new ImportUsageError(`${a} needs a value\n${DATASET_USAGE}`);
      values.set(a, v);
    } else if (a.startsWith('--')) throw new ImportUsageError(`unknown option ${a}\n${DATASET_USAGE}`);
    else positional.push(a);
  }
  const [kind, countryArg, given, ...extra] = positional;
  if (kind === 'status') throw new ImportUsageError(`import status takes no arguments or options, got ${argv.slice(1).join(' ')}\n${DATASET_USAGE}`);
  if (kind !== undefined && !(DATASET_KINDS as readonly string[]).includes(kind)) throw unknownCommand(kind);
  if (!kind || !countryArg) throw new ImportUsageError(DATASET_USAGE);
  // No file: the official one is resolved (and downloaded) by the caller; `official` marks it.
  const location = given ?? '';
  if (extra.length) throw new ImportUsageError(`unexpected argument ${extra[0]}\n${DATASET_USAGE}`);
  const country = countryArg.toUpperCase();
  if (!(COUNTRY_CODES as readonly string[]).includes(country)) throw new ImportUsageError(`country: unknown country ${countryArg}; one of ${COUNTRY_CODES.join(', ')}`);
  const format = values.get('--format') ?? defaultFormat(kind as DatasetKind, country as CountryCode, given);
  checkFormat(format, kind as DatasetKind, country as CountryCode);
  const checksum = values.get('--checksum')?.toLowerCase();
  if (checksum !== undefined && !/^sha256:[0-9a-f]{64}$/.test(checksum)) throw new ImportUsageError(`--checksum: must be sha256:<64 hex digits>, got ${checksum}`);
  const waitS = waitSeconds(flags.has('--wait'), values.get('--wait-timeout'));
  const common = { dryRun: flags.has('--dry-run'), force: flags.has('--force'), ...(waitS !== undefined ? { waitS } : {}) };
  if (!location) return { kind: kind as DatasetKind, country: country as CountryCode, format, location: '', isUrl: true, official: true, ...(checksum ? { checksum } : {}), ...common };
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
  if (isUrl && !/^https?:\/\//i.test(location)) throw new ImportUsageError(`location: only http(s) URLs can be fetched, got ${location}`);
  if (isUrl) {
    try {
      new URL(location);
    } catch {
      throw new ImportUsageError(`location: not a valid URL: ${location}`);
    }
  }
  return {
    kind: kind as DatasetKind,
    country: country as CountryCode,
    format,
    location: isUrl ? location : resolve(location),
    isUrl,
    ...(checksum ? { checksum } : {}),
    ...common,
  };
}

/**
 * The first word is neither `status` nor a dataset kind (`catalogue` is one): named, with the words
 * that are.
 */
function unknownCommand(word: string): ImportUsageError {
  return new ImportUsageError(`unknown import command "${word}"; one of: ${['status', ...DATASET_KINDS].join(', ')}\n${DATASET_USAGE}`);
}

function waitSeconds(wait: boolean, timeout: string | undefined): number | undefined {
  if (timeout === undefined) return wait ? DEFAULT_WAIT_TIMEOUT_S : undefined;
  if (!wait) throw new ImportUsageError('--wait-timeout: only with --wait');
  if (!/^[1-9][0-9]{0,6}$/.test(timeout)) throw new ImportUsageError(`--wait-timeout: a whole number of seconds (1 or more), got ${timeout}`);
  return Number(timeout);
}

/** The catalogue command's own form per country (README, "Importing official data"), for a catalogue given as a bare file. */
const CATALOGUE_FORM: Partial<Record<CountryCode, string>> = {
  SK: 'the register batches and GeoNames: npm run import -- catalogue SK --register davky.zip --geonames SK.txt',
  PL: 'GeoNames postal codes: npm run import -- catalogue <CC> --geonames <CC>.txt',
};

/**
 * What a file of the formats that share a kind and country is named (`res_data.csv` is RES, an
 * ARES answer `.json`), so the README's `business CZ res_data.csv` needs no `--format`.
 */
const FORMAT_FILE_NAMES: Readonly<Record<string, RegExp>> = {
  'cz-res-csv': /\.csv(\.gz)?$/i,
  'cz-ares-json': /\.json$/i,
};

function defaultFormat(kind: DatasetKind, country: CountryCode, location?: string): string {
  const fits = formatsFor(kind, country);
  if (fits.length === 1) return fits[0]!;
  const named = location ? fits.filter((f) => FORMAT_FILE_NAMES[f]?.test(location)) : [];
  if (named.length === 1) return named[0]!;
  if (!fits.length && kind === 'catalogue') throw new ImportUsageError(`catalogue of ${country}: name the file by its option, ${CATALOGUE_FORM[country] ?? CATALOGUE_FORM['PL']}`.replace(/<CC>/g, country));
  if (!fits.length) throw new ImportUsageError(`country: no known format imports ${kind} of ${country}`);
  throw new ImportUsageError(`--format: ${kind} of ${country} comes in several formats; say which: ${fits.join(', ')}`);
}

function checkFormat(format: string, kind: DatasetKind, country: CountryCode): void {
  const f = FORMATS[format];
  if (!f) throw new ImportUsageError(`--format: unknown format ${format}; one of ${Object.keys(FORMATS).join(', ')}`);
  if (!f.kinds.includes(kind)) throw new ImportUsageError(`--format: ${format} holds ${f.kinds.join('/')}, not ${kind}`);
  if (!f.countries.includes(country)) throw new ImportUsageError(`country: ${format} is a dataset of ${f.countries.join('/')}, not ${country}`);
}

/** The local input must exist and be readable; a file gets its sha256 (checked against --checksum). */
export async function checkLocalInput(args: DatasetImportArgs): Promise<{ checksum?: string; bytes: number; modifiedAt: string }> {
  let st;
  try {
    st = await stat(args.location);
    await access(args.location, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ImportUsageError(`location: ${args.location} ${code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable' : (err as Error).message}`);
  }
  if (st.isDirectory()) {
    if (args.checksum) throw new ImportUsageError('--checksum: a folder has no checksum; give the file');
    return { bytes: 0, modifiedAt: st.mtime.toISOString() };
  }
  if (!st.isFile()) throw new ImportUsageError(`location: ${args.location} is not a file or folder`);
  if (st.size === 0) throw new ImportUsageError(`location: ${args.location} is empty`);
  const checksum = `sha256:${await sha256File(args.location)}`;
  if (args.checksum && args.checksum !== checksum) throw new ImportUsageError(`--checksum: the file's is ${checksum}, not ${args.checksum}`);
  return { checksum, bytes: st.size, modifiedAt: st.mtime.toISOString() };
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}
