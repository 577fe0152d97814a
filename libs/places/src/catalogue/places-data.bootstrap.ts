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
import { AddressImportSummary, configuredSources, importAddressesIfEmpty, importCatalogues, importGeonamesPlacesFor, sampleSources } from './catalogue.import';

/** The shape every country importer shares (see `ruianPlaceDocs`). */
type PlaceDocsImporter = (opts: { sources: string[]; catalogue?: Catalogue; batchSize?: number; onReport?: (r: AddressImportReport) => void }) => AsyncGenerator<PlaceDoc[]>;

export type SampleRegisterCountry = 'SK' | 'PL' | 'AT' | 'CH' | 'LI';

/** A country's bundled register sample: its importer and the fixture files, in the order they are read. */
export interface SampleRegister {
  country: SampleRegisterCountry;
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
    { country: 'SK', importer: (o) => skRegisterPlaceDocs(o), sources: [join(dir, 'sk/DavkaInit-sample.xml')] },
    { country: 'PL', importer: plPlaceDocs, sources: [join(dir, 'pl')] },
    { country: 'AT', importer: atPlaceDocs, sources: [join(dir, 'at/stichtag'), join(dir, 'at/aenderung')] },
    { country: 'CH', importer: chPlaceDocs, sources: [join(dir, 'ch/amtliches-gebaeudeadressverzeichnis_ch_2056.csv')] },
    { country: 'LI', importer: liPlaceDocs, sources: [join(dir, 'li/liechtenstein-sample.pbf')] },
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
 * placed in the bundled GeoNames catalogue. Only where that catalogue is the sample's own:
 * invented addresses must not mix with a configured official catalogue. Plain upserts: the
 * bulk path's index rebuild would cost more than the whole sample.
 */
export async function importSampleRegistersIfEmpty(
  store: PlacesStore,
  config: AppConfig,
  onFailure: (country: CountryCode, err: Error) => void = (_, err) => {
    throw err;
  },
): Promise<AddressImportSummary[]> {
  if (!config.SAMPLE_DATA) return [];
  const configured = configuredSources(config);
  const out: AddressImportSummary[] = [];
  for (const sample of sampleRegisters()) {
    const cc = sample.country;
    if (configured[cc] || (await store.count(cc, 'address')) > 0) continue;
    const started = process.hrtime.bigint();
    try {
      const { catalogue } = await loadCatalogue(sampleSources()[cc]);
      const { docs, report } = await sampleRegisterDocs(sample, catalogue);
      await store.upsert(docs);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      out.push({ country: cc, source: 'bundled sample', docs: docs.length, addresses: report.addresses, seconds, errors: report.errors });
    } catch (err) {
      onFailure(cc, err as Error);
    }
  }
  return out;
}

/**
 * Standalone on a bare machine: when the store has no catalogue (or no addresses of a country),
 * import the configured official files, or else the bundled sample (SAMPLE_DATA, on by default).
 * Order matters: catalogues of all six countries first; then address points (CZ, and the PL/AT/
 * CH/LI register samples), whose municipality documents replace the catalogue's positions with
 * centroids; last the GeoNames postal codes, which keep the ids the registers already wrote.
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
    const reports = await importCatalogues(this.store, this.config, { onlyIfEmpty: true });
    for (const r of reports) this.logger.log(`${r.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.source})`);
    const addresses = await importAddressesIfEmpty(this.store, this.config);
    // A failing sample importer is logged, not fatal: the API starts with the other countries' data.
    addresses.push(...(await importSampleRegistersIfEmpty(this.store, this.config, (cc, err) => this.logger.error(`${cc} register sample not imported: ${err.message}`))));
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
  }
}
