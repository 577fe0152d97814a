import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sourcesAt } from '../io/source';

/** A folder of RUIAN address CSVs cut from the real monthly zip (for tests; never committed). */
export interface RuianSubset {
  /** The folder: give it to the importer as it would get the zip. */
  dir: string;
  /** Municipality codes (`kodobce`) whose files were taken, in the zip's order. */
  municipalities: string[];
  /** Address rows in those files (lines after each header), counted without parsing them. */
  addresses: number;
  /** The same count per municipality code (a file may hold the header only: a military area). */
  addressesIn: Map<string, number>;
}

/**
 * Every `step`-th municipality file of the real monthly zip, plus every file of the municipality
 * codes in `codes`, written as they are into `<dir>/CSV`: part of the register, read at test time
 * from `../shared/data` (see its README), so that a test imports in seconds what a benchmark
 * imports whole.
 */
export async function ruianSubset(zip: string, dir: string, opts: { step: number; codes?: ReadonlySet<string> }): Promise<RuianSubset> {
  const out = join(dir, 'CSV');
  mkdirSync(out, { recursive: true });
  const municipalities: string[] = [];
  const addressesIn = new Map<string, number>();
  let i = 0;
  for await (const src of sourcesAt(zip, /_ADR\.csv$/i)) {
    const code = /_OB_(\d+)_ADR/.exec(src.name)?.[1] ?? src.name;
    if (i++ % opts.step !== 0 && !opts.codes?.has(code)) continue;
    municipalities.push(code);
    const file = join(out, src.name.split('/').pop()!);
    await pipeline(await src.open(), createWriteStream(file));
    // windows-1250 keeps '\n' a single byte: lines are counted on the raw bytes.
    const text = readFileSync(file).toString('latin1').trim();
    addressesIn.set(code, text ? text.split('\n').length - 1 : 0);
  }
  return { dir: out, municipalities, addresses: [...addressesIn.values()].reduce((a, b) => a + b, 0), addressesIn };
}

/**
 * The municipality codes (`kodobce`) of the Czech catalogue CSV (`psc-list.csv`: header
 * `kodcobce,nazcobce,psc,kodobce,nazobce,...`) whose names are among `names`: every namesake, so
 * a subset keeps the same-name municipalities a search must tell apart.
 */
export function municipalityCodesNamed(pscList: string, names: Iterable<string>): Set<string> {
  const wanted = new Set(names);
  const [header, ...rows] = readFileSync(pscList, 'utf8').trim().split('\n');
  const cols = header!.split(',');
  const code = cols.indexOf('kodobce');
  const name = cols.indexOf('nazobce');
  if (code < 0 || name < 0) throw new Error(`${pscList}: no kodobce/nazobce columns`);
  const codes = new Set<string>();
  for (const row of rows) {
    const f = row.split(',');
    if (wanted.has(f[name]!)) codes.add(f[code]!);
  }
  return codes;
}
