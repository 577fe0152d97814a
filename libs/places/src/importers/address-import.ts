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
 * Streams every PlaceDoc of a country's address dataset in batches: addresses first, then derived streets, postal codes and municipalities (municipality docs carry centroid + weight = address count and replace the catalogue's positions; one none of whose addresses has a position keeps the catalogue's). Memory independent of the dataset size except for the aggregates.
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
 * The catalogue an SK address import (or change batch) joins its addresses to: the live catalogue
 * layer's regions, counties and municipalities (names, links and the positions a `catalogue SK`
 * import gave them from GeoNames) over the register's own, read with the addresses (which have
 * no positions). A catalogue object no address derives is written only where the live catalogue
 * lacks it: the live one is carried unchanged, as the layers compose (libs/indexer/README.md,
 * "What a version holds"). Without a live catalogue the register's own are written.
 */
export class SkCatalogueJoin {
  private readonly live: Map<string, PlaceDoc>;

  constructor(
    private readonly register: Map<string, PlaceDoc>,
    live: PlaceDoc[] = [],
  ) {
    this.live = new Map(live.map((d) => [d.place_id, d]));
  }

  /** The doc a derived municipality, county or region starts from. */
  readonly get = (id: string): PlaceDoc | undefined => this.live.get(id) ?? this.register.get(id);

  /** The register's catalogue objects to write when no address derived them. */
  *underived(agg: AddressAggregates): Generator<PlaceDoc> {
    for (const d of this.register.values()) if (!agg.derives(d.place_id) && !this.live.has(d.place_id)) yield d;
  }
}

/**
 * Every PlaceDoc of Register adries sources: XML batches (init and change, any order, each applied once or more) and the CSV table dumps, as files, zips or folders.
 * The sources must include the REGION/COUNTY/MUNICIPALITY registers. Unlike RUIAN, a change batch may revise any earlier
 * record, so the current version of every object is held (compactly) until all sources are read.
 * With `liveCatalogue` the municipalities, counties and regions join it (SkCatalogueJoin).
 */
export async function* skRegisterPlaceDocs(opts: {
  sources: string[];
  /** The country's live region, county and municipality documents (the catalogue layer), if any. */
  liveCatalogue?: PlaceDoc[];
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
  const catalogue = new SkCatalogueJoin(fold.catalogue, opts.liveCatalogue);
  const agg = new AddressAggregates('SK', catalogue.get);
  for (const doc of fold.addresses((m) => run.error(m), () => run.report.skipped++)) {
    run.report.addresses++;
    agg.add(doc);
    const full = run.push(doc);
    if (full) yield full;
  }
  for (const e of fold.errors) run.error(e);
  // What the register holds without entrances (the initial batches: all streets and
  // municipalities, few entrances): the streets and catalogue objects no address derived
  // (not the live catalogue's: those are carried as they are).
  for (const doc of [...fold.streets(), ...catalogue.underived(agg)]) {
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
