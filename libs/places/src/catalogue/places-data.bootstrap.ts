import { join } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CountryCode } from '@lookup/contracts';
import { APP_CONFIG, AppConfig, projectRoot } from '@lookup/shared/config';
import { PlaceDoc } from '../domain/place.doc';
import { AddressImportReport, skRegisterPlaceDocs } from '../importers/address-import';
import { atPlaceDocs } from '../importers/at/at-address-import';
import { loadCatalogue } from '../importers/catalogue.loader';
import { Catalogue } from '../importers/catalogue.types';
import { chPlaceDocs } from '../importers/ch/ch-import';
import { liPlaceDocs } from '../importers/li/li-import';
import { plPlaceDocs } from '../importers/pl/pl-address-import';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { BUNDLED_SAMPLE_SOURCE, bundledSampleKinds, createDatasetStatus, DatasetStatusStore } from '../store/dataset-status';
import { AddressImportSummary, configuredSources, importAddressesIfEmpty, importCatalogues, importGeonamesPlacesFor, sampleSources } from './catalogue.import';

/** The shape every country importer shares (see `ruianPlaceDocs`). */
type PlaceDocsImporter = (opts: { sources: string[]; catalogue?: Catalogue; batchSize?: number; onReport?: (r: AddressImportReport) => void }) => AsyncGenerator<PlaceDoc[]>;

export type SampleRegisterCountry = 'SK' | 'PL' | 'AT' | 'CH' | 'LI';

/** A country's bundled register sample: its importer and the fixture files, in the order they are read. */
export interface SampleRegister {
  country: SampleRegisterCountry;
  /** The official format the sample is written in (the import CLI's name for it). */
  format: string;
  importer: PlaceDocsImporter;
  sources: string[];
}

/**
 * The register samples of SK, PL, AT, CH and LI under `fixtures/sample/` (see its README): our
 * own invented rows in each register's official format, without the deliberately bad rows the
 * importer tests keep in their fixtures (those would print WARN lines at every first start).
 * AT is listed file by file because order matters: the later file carries the changed records.
 */
export function sampleRegisters(): SampleRegister[] {
  const dir = join(projectRoot(), 'libs/places/src/fixtures/sample');
  return [
    { country: 'SK', format: 'sk-register', importer: (o) => skRegisterPlaceDocs(o), sources: [join(dir, 'sk/DavkaInit-sample.xml')] },
    { country: 'PL', format: 'pl-prg-gml', importer: plPlaceDocs, sources: [join(dir, 'pl')] },
    { country: 'AT', format: 'at-bev-csv', importer: atPlaceDocs, sources: [join(dir, 'at/stichtag'), join(dir, 'at/aenderung')] },
    { country: 'CH', format: 'ch-swisstopo-csv', importer: chPlaceDocs, sources: [join(dir, 'ch/amtliches-gebaeudeadressverzeichnis_ch_2056.csv')] },
    { country: 'LI', format: 'li-osm-pbf', importer: liPlaceDocs, sources: [join(dir, 'li/liechtenstein-sample.pbf')] },
  ];
}

/**
 * Every document of one register sample, read whole before anything is written: the samples
 * are a few dozen rows, and an importer that fails half-way then leaves nothing behind.
 */
export async function sampleRegisterDocs(sample: SampleRegister, catalogue: Catalogue): Promise<{ docs: PlaceDoc[]; report: AddressImportReport }> {
  let report: AddressImportReport | undefined;
  const docs: PlaceDoc[] = [];
  for await (const batch of sample.importer({ sources: sample.sources, catalogue, batchSize: 1000, onReport: (r) => (report = r) })) docs.push(...batch);
  if (!report) throw new Error(`${sample.country} sample: the importer gave no report`);
  return { docs, report };
}

/**
 * The PL/AT/CH/LI register samples into a store that has no addresses of that country, each
 * placed in the bundled GeoNames catalogue. Only where that catalogue is the sample's own
 * (`catalogueIsSample`, and none configured): invented addresses must not mix with an official
 * catalogue. Plain upserts: the bulk path's index rebuild would cost more than the whole sample.
 */
export async function importSampleRegistersIfEmpty(
  store: PlacesStore,
  config: AppConfig,
  onFailure: (country: CountryCode, err: Error) => void = (_, err) => {
    throw err;
  },
  catalogueIsSample: (country: CountryCode) => boolean = () => true,
): Promise<AddressImportSummary[]> {
  if (!config.SAMPLE_DATA) return [];
  const configured = configuredSources(config);
  const out: AddressImportSummary[] = [];
  for (const sample of sampleRegisters()) {
    const cc = sample.country;
    if (configured[cc] || !catalogueIsSample(cc) || (await store.count(cc, 'address')) > 0) continue;
    const started = process.hrtime.bigint();
    try {
      const { catalogue } = await loadCatalogue(sampleSources()[cc]);
      const { docs, report } = await sampleRegisterDocs(sample, catalogue);
      await store.upsert(docs);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      out.push({ country: cc, source: 'bundled sample', format: sample.format, docs: docs.length, addresses: report.addresses, seconds, errors: report.errors });
    } catch (err) {
      onFailure(cc, err as Error);
    }
  }
  return out;
}

/**
 * Puts on record (the standalone status file, `npx lookup import status`, `/health/ready`) each
 * layer the bundled sample just made live: `catalogue` and `addresses` per country, marked
 * `sample` with the source BUNDLED_SAMPLE_SOURCE, so a user sees invented rows are live and an
 * official import of the country knows to replace the whole sample (libs/indexer/README.md).
 */
export async function recordBundledSample(
  store: PlacesStore,
  status: Pick<DatasetStatusStore, 'record'>,
  layers: { catalogues: readonly { country: CountryCode; source: string }[]; addresses: readonly { country: CountryCode; source: string; format: string }[] },
): Promise<void> {
  const since = new Date().toISOString();
  const entries = [
    ...layers.catalogues.filter((c) => c.source === 'bundled sample').map((c) => ({ country: c.country, kind: 'catalogue', format: 'catalogue' })),
    ...layers.addresses.filter((a) => a.source === 'bundled sample').map((a) => ({ country: a.country, kind: 'addresses', format: a.format })),
  ];
  for (const e of entries) {
    const docs = (await store.liveVersion(e.country))?.docs ?? 0;
    await status.record(e.country, e.kind, { format: e.format, source: BUNDLED_SAMPLE_SOURCE, since, version: 'sample', docs, sample: true });
  }
}

/**
 * Standalone on a bare machine: when the store has no catalogue (or no addresses of a country),
 * import the configured official files, or else the bundled sample (SAMPLE_DATA, on by default).
 * Order matters: catalogues of all six countries first; then address points (CZ, and the PL/AT/
 * CH/LI register samples), whose municipality documents replace the catalogue's positions with
 * centroids; last the GeoNames postal codes, which keep the ids the registers already wrote.
 * A country gets the sample whole or not at all: its sample catalogue only while it has no
 * addresses either, its sample addresses only into its sample catalogue (this start's, or one on
 * record as the sample's). What the sample put live is recorded (`recordBundledSample`).
 */
@Injectable()
export class PlacesDataBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('PlacesData');

  constructor(
    @Inject(PLACES_STORE) private readonly store: PlacesStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROFILE !== 'standalone') return;
    const status = createDatasetStatus(this.config);
    try {
      await this.importAll(status);
    } finally {
      await status.close();
    }
  }

  private async importAll(status: DatasetStatusStore): Promise<void> {
    const reports = await importCatalogues(this.store, this.config, { onlyIfEmpty: true });
    for (const r of reports) this.logger.log(`${r.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.source})`);
    const recorded = await status.read();
    const sampleCatalogues = new Set<CountryCode>(reports.filter((r) => r.source === 'bundled sample').map((r) => r.country));
    const catalogueIsSample = (cc: CountryCode) => sampleCatalogues.has(cc) || bundledSampleKinds(recorded, cc).includes('catalogue');
    const addresses = await importAddressesIfEmpty(this.store, this.config, catalogueIsSample('CZ'));
    // A failing sample importer is logged, not fatal: the API starts with the other countries' data.
    addresses.push(...(await importSampleRegistersIfEmpty(this.store, this.config, (cc, err) => this.logger.error(`${cc} register sample not imported: ${err.message}`), catalogueIsSample)));
    for (const a of addresses) {
      this.logger.log(`${a.country}: ${a.addresses} address points, ${a.docs} documents in ${a.seconds.toFixed(1)} s (${a.source})`);
      if (a.errors.length) this.logger.warn(`${a.country} addresses: ${a.errors.length} problems, first: ${a.errors[0]}`);
    }
    const geonames = await importGeonamesPlacesFor(this.store, this.config, reports.map((r) => r.country));
    for (const g of geonames) {
      const r = g.report;
      this.logger.log(`${g.country}: ${r.postalCodes} postal codes, ${r.municipalities} municipalities from GeoNames, ${r.keptExisting} kept from the register (${g.source})`);
      if (r.errors.length) this.logger.warn(`${g.country} GeoNames: ${r.errors.length} problems, first: ${r.errors[0]}`);
    }
    // Each of those writes added full-text segments to the live file; searches pay per segment.
    if ((reports.length || addresses.length || geonames.length) && this.store instanceof SqlitePlacesStore) await this.store.optimizeSearchIndex();
    await recordBundledSample(this.store, status, { catalogues: reports, addresses });
  }
}
