import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { SourceFile, sourcesAt } from '../io/source';
import { PrgAddressBuilder, PrgSkip } from './prg-address.builder';
import { PrgDictionary } from './prg-dictionary';
import { readTercNames, TERC_ENTRY } from './teryt-terc.reader';
import { firstText, PRG_DICTIONARY, PRG_POINT, PrgFeature, readPrgFeatures } from './prg-gml.reader';

/** Which members of a zip or folder are PRG GML files. */
export const PRG_ENTRY = /\.(gml|xml)$/i;

const DICTIONARY_AND_POINTS = new Set([...PRG_DICTIONARY, ...PRG_POINT]);

/**
 * Every PlaceDoc of Polish PRG address points: GML files of the 2012 or the 2021 schema (per
 * voivodeship or powiat, as published), given as files, zips or folders. Addresses first, then
 * the derived streets, postal codes, gminas, powiats and voivodeships. Region, county and
 * municipality names come from `catalogue` (the GeoNames one) when given, else from a TERYT
 * TERC table among the sources (`TERC*.csv` or `TERC*.xml`), else from the file (2012 only).
 *
 * Each file is read twice: first its name objects and the latest version of every point, then
 * its points. A point listed twice in a file (a change) yields only its latest `wersjaId`.
 * Points that cannot be placed are counted in `skipped` and described in `errors`.
 */
export async function* plPlaceDocs(opts: {
  sources: string[];
  catalogue?: Catalogue;
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
}): AsyncGenerator<PlaceDoc[]> {
  const run = new ImportRun('PL', opts.batchSize ?? 1000);
  const c = opts.catalogue;
  const byId = new Map(c ? [...c.regions, ...c.counties, ...c.municipalities].map((d) => [d.place_id, d]) : []);
  const lookup = (id: string) => byId.get(id);
  for (const e of c?.errors ?? []) run.error(`catalogue: ${e}`);
  const agg = new AddressAggregates('PL', lookup);
  const terc = new Map<string, string>();
  for (const path of opts.sources) {
    if (!(await isContainer(path)) && !PRG_ENTRY.test(path) && !TERC_ENTRY.test(basename(path))) {
      run.error(`${path}: neither PRG GML (.gml, .xml) nor a TERC table (TERC*.csv, TERC*.xml), nor a zip or folder of them: not read`);
    }
    for await (const file of sourcesAt(path, TERC_ENTRY)) {
      if (TERC_ENTRY.test(file.name)) for (const [id, name] of await readTercNames(file, (m) => run.error(m))) terc.set(id, name);
    }
  }
  const names = { catalogue: lookup, catalogueGiven: !!c, terc };
  for (const path of opts.sources) {
    for await (const file of sourcesAt(path, PRG_ENTRY)) {
      // A TERC table in XML matches PRG_ENTRY too; it was read above.
      if (!PRG_ENTRY.test(file.name) || TERC_ENTRY.test(file.name)) continue;
      const { dict, latest } = await firstPass(file);
      const builder = new PrgAddressBuilder(dict, names, (m) => run.error(m));
      for await (const f of readPrgFeatures(file, PRG_POINT)) {
        if (!latest.isLatest(f)) continue;
        const doc = builder.build(f, `${file.name} line ${f.line}`);
        if (doc instanceof PrgSkip) {
          run.report.skipped++;
          run.error(`${file.name} line ${f.line}: ${doc.reason}`);
          continue;
        }
        run.report.addresses++;
        agg.add(doc);
        const full = run.push(doc);
        if (full) yield full;
      }
    }
  }
  yield* derived(run, agg, opts.onReport);
}

async function isContainer(path: string): Promise<boolean> {
  return /\.zip$/i.test(path) || (await stat(path)).isDirectory();
}

async function firstPass(file: SourceFile): Promise<{ dict: PrgDictionary; latest: LatestVersions }> {
  const dict = new PrgDictionary();
  const latest = new LatestVersions();
  for await (const f of readPrgFeatures(file, DICTIONARY_AND_POINTS)) {
    if (PRG_POINT.has(f.type)) latest.see(f);
    else dict.add(f);
  }
  latest.seal();
  return { dict, latest };
}

/**
 * Which version of each point of one file to keep. The first pass notes a 53-bit hash of every
 * `lokalnyId` with its `wersjaId` in two typed arrays (16 bytes a point, dropped after the pass);
 * only the ids seen more than once (changes: a handful) are kept for the second pass. A hash
 * collision between two different points (odds ~1e-4 for a whole voivodeship) would drop the
 * older one, as for a change.
 */
export class LatestVersions {
  private keys: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private versions: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private count = 0;
  /** Hash -> latest version for the repeated ids; Infinity once that version was let through. */
  private repeated = new Map<number, number>();

  see(f: PrgFeature): void {
    const id = firstText(f, 'lokalnyId');
    if (!id) return;
    if (this.count === this.keys.length) {
      this.keys = grow(this.keys);
      this.versions = grow(this.versions);
    }
    this.keys[this.count] = hash53(id);
    this.versions[this.count++] = versionOf(f);
  }

  /** Ends the first pass: finds the repeated ids and frees the arrays. */
  seal(): void {
    const sorted = this.keys.slice(0, this.count).sort();
    const dup = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) dup.add(sorted[i]!);
    for (let i = 0; i < this.count; i++) {
      const k = this.keys[i]!;
      if (dup.has(k)) this.repeated.set(k, Math.max(this.repeated.get(k) ?? -Infinity, this.versions[i]!));
    }
    this.keys = new Float64Array(0);
    this.versions = new Float64Array(0);
    this.count = 0;
  }

  /** True for a point listed once, and once for the latest version of a repeated one; points without an id pass to be reported. */
  isLatest(f: PrgFeature): boolean {
    const id = firstText(f, 'lokalnyId');
    if (!id) return true;
    const key = hash53(id);
    const latest = this.repeated.get(key);
    if (latest === undefined) return true;
    if (versionOf(f) < latest) return false;
    this.repeated.set(key, Infinity);
    return true;
  }
}

function grow(a: Float64Array): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function versionOf(f: PrgFeature): number {
  const t = Date.parse(firstText(f, 'wersjaId') ?? '');
  return Number.isFinite(t) ? t : 0;
}

/** Two FNV-1a hashes with different offsets, 32 + 21 bits: exact in a double. */
export function hash53(s: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
