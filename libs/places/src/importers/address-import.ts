import { CountryCode } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { AddressAggregates } from './address-aggregates';
import { loadCatalogue } from './catalogue.loader';
import { BytesRead, meteredSourcesAt, sourcesAt } from './io/source';
import { RuianAddressBuilder } from './cz/ruian-address.builder';
import { readRuianCsv } from './cz/ruian-csv.reader';
import { SkAddressFold, SK_ADDRESS_TYPES } from './sk/sk-address.fold';
import { readRegisterSources, RegisterCsvError } from './sk/sk-register-csv.reader';

export interface AddressImportReport {
  country: CountryCode;
  addresses: number;
  streets: number;
  postalCodes: number;
  municipalities: number;
  /** Rows or records that did not become an address (each one is described in `errors`, up to a cap). */
  skipped: number;
  errors: string[];
  seconds: number;
}

/** Enough messages to see every kind of problem without letting a broken file fill the memory. */
export const MAX_REPORTED_ERRORS = 1000;

/** Which members of a RUIAN zip or folder are address files. */
export const RUIAN_ENTRY = /_ADR\.csv$/i;

/** Collects a report's errors (capped) and hands out docs in batches. */
export class ImportRun {
  readonly report: AddressImportReport;
  private batch: PlaceDoc[] = [];
  private readonly started = process.hrtime.bigint();
  private dropped = 0;

  constructor(
    country: CountryCode,
    private readonly batchSize: number,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
    this.report = { country, addresses: 0, streets: 0, postalCodes: 0, municipalities: 0, skipped: 0, errors: [], seconds: 0 };
  }

  error(message: string): void {
    if (this.report.errors.length < MAX_REPORTED_ERRORS) this.report.errors.push(message);
    else this.dropped++;
  }

  /** Returns a full batch to yield, or null. */
  push(d: PlaceDoc): PlaceDoc[] | null {
    this.batch.push(d);
    if (this.batch.length < this.batchSize) return null;
    const out = this.batch;
    this.batch = [];
    return out;
  }

  flush(): PlaceDoc[] | null {
    const out = this.batch;
    this.batch = [];
    return out.length ? out : null;
  }

  finish(agg: AddressAggregates): AddressImportReport {
    Object.assign(this.report, agg.counts);
    if (this.dropped) this.report.errors.push(`... and ${this.dropped} more errors`);
    this.report.seconds = Number(process.hrtime.bigint() - this.started) / 1e9;
    return this.report;
  }
}

/**
 * Streams every PlaceDoc of a country's address dataset in batches: addresses first, then derived streets, postal codes and municipalities (municipality docs carry centroid + weight = address count and replace the catalogue's positions). Memory independent of the dataset size except for the aggregates.
 * After the municipalities come the catalogue's counties and regions, also with centroid and weight (same ids, so they replace the catalogue docs too).
 * Reads a RUIAN zip, a folder of `*_ADR.csv` or one such file; bad rows are counted in `skipped` and described in `errors`.
 */
export async function* ruianPlaceDocs(opts: {
  zipOrDir: string;
  /** The catalogue file, or the catalogue's documents (the live catalogue the pipeline read from the store). */
  catalogue: { pscList: string } | { docs: PlaceDoc[] };
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
  /** Bytes of the address files read so far, of their total (uncompressed). */
  onBytes?: BytesRead;
}): AsyncGenerator<PlaceDoc[]> {
  const run = new ImportRun('CZ', opts.batchSize ?? 1000);
  let docs: PlaceDoc[];
  if ('docs' in opts.catalogue) docs = opts.catalogue.docs;
  else {
    const { catalogue } = await loadCatalogue({ country: 'CZ', sources: { pscList: opts.catalogue.pscList } });
    for (const e of catalogue.errors) run.error(`catalogue: ${e}`);
    docs = [...catalogue.regions, ...catalogue.counties, ...catalogue.municipalities];
  }
  const byId = new Map(docs.map((m) => [m.place_id, m]));
  const lookup = (id: string) => byId.get(id);
  const agg = new AddressAggregates('CZ', lookup);
  const builder = new RuianAddressBuilder(lookup, (m) => run.error(m));
  const sources = opts.onBytes ? meteredSourcesAt(opts.zipOrDir, RUIAN_ENTRY, opts.onBytes) : sourcesAt(opts.zipOrDir, RUIAN_ENTRY);
  for await (const source of sources) {
    const rows = readRuianCsv(source, (e) => {
      run.report.skipped++;
      run.error(`${source.name} line ${e.line}: ${e.message}`);
    });
    for await (const row of rows) {
      const doc = builder.build(row);
      run.report.addresses++;
      agg.add(doc);
      const full = run.push(doc);
      if (full) yield full;
    }
  }
  yield* derived(run, agg, opts.onReport);
}

/**
 * Every PlaceDoc of Register adries sources: XML batches (init and change, any order, each applied once or more) and the CSV table dumps, as files, zips or folders.
 * The sources must include the REGION/COUNTY/MUNICIPALITY registers. Unlike RUIAN, a change batch may revise any earlier
 * record, so the current version of every object is held (compactly) until all sources are read.
 */
export async function* skRegisterPlaceDocs(opts: {
  sources: string[];
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
}): AsyncGenerator<PlaceDoc[]> {
  const run = new ImportRun('SK', opts.batchSize ?? 1000);
  const fold = new SkAddressFold();
  const rowError = (e: RegisterCsvError) => {
    run.report.skipped++;
    run.error(`${e.source} line ${e.line}: ${e.message}`);
  };
  for (const path of opts.sources) {
    for await (const rec of readRegisterSources(path, SK_ADDRESS_TYPES, rowError)) fold.apply(rec);
  }
  const { catalogue } = fold;
  const agg = new AddressAggregates('SK', (id) => catalogue.get(id));
  for (const doc of fold.addresses((m) => run.error(m), () => run.report.skipped++)) {
    run.report.addresses++;
    agg.add(doc);
    const full = run.push(doc);
    if (full) yield full;
  }
  for (const e of fold.errors) run.error(e);
  // What the register holds without entrances (the initial batches: all streets and
  // municipalities, few entrances): the streets and catalogue objects no address derived.
  for (const doc of [...fold.streets(), ...catalogue.values()]) {
    if (agg.derives(doc.place_id)) continue;
    const full = run.push(doc);
    if (full) yield full;
  }
  yield* derived(run, agg, opts.onReport);
}

/** Flushes the last addresses, then yields the derived docs and reports. */
export function* derived(run: ImportRun, agg: AddressAggregates, onReport?: (r: AddressImportReport) => void): Generator<PlaceDoc[]> {
  const last = run.flush();
  if (last) yield last;
  for (const doc of agg.docs()) {
    const full = run.push(doc);
    if (full) yield full;
  }
  const rest = run.flush();
  if (rest) yield rest;
  onReport?.(run.finish(agg));
}
