import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CountryCode } from '@lookup/contracts';
import { AppConfig, projectRoot } from '@lookup/shared/config';
import { PlacesStore } from '../store/places.store';
import { loadCatalogue, CatalogueRequest as CatalogueSources } from '../importers/catalogue.loader';
import { AddressImportReport, ruianPlaceDocs } from '../importers/address-import';
import { Catalogue } from '../importers/catalogue.types';
import { GEONAMES_CATALOGUE_COUNTRIES } from '../importers/geonames/geonames-names';
import { GeonamesImportReport, geonamesPlaceDocs } from '../importers/geonames/geonames-place-docs';

/** Every country with a catalogue, in the order they are imported. */
export const CATALOGUE_COUNTRIES = ['CZ', 'SK', ...GEONAMES_CATALOGUE_COUNTRIES] as const;
type CatalogueCountry = (typeof CATALOGUE_COUNTRIES)[number];

export interface CatalogueImportReport {
  country: CountryCode;
  source: string;
  regions: number;
  counties: number;
  municipalities: number;
  withoutCoordinates: number;
  errors: string[];
}

/** The bundled sample: small files the project wrote in the official formats (PL, AT, CH, LI: GeoNames format only). */
export function sampleSources(): Record<CatalogueCountry, CatalogueSources> {
  const dir = join(projectRoot(), 'libs/places/src/fixtures');
  const geonames = (cc: string) => join(dir, `sample/geonames/${cc}.txt`);
  return {
    CZ: { country: 'CZ', sources: { pscList: join(dir, 'cz/psc-list.csv'), geonames: geonames('CZ') } },
    SK: { country: 'SK', sources: { register: join(dir, 'sample/sk/DavkaInit-sample.xml'), geonames: geonames('SK') } },
    PL: { country: 'PL', sources: { geonames: geonames('PL') } },
    AT: { country: 'AT', sources: { geonames: geonames('AT') } },
    CH: { country: 'CH', sources: { geonames: geonames('CH') } },
    LI: { country: 'LI', sources: { geonames: geonames('LI') } },
  };
}

/** `GEONAMES_DIR/<CC>.txt` where configured and present. */
function configuredGeonames(config: AppConfig, cc: string): string | undefined {
  const p = config.GEONAMES_DIR ? join(config.GEONAMES_DIR, `${cc}.txt`) : undefined;
  return p && existsSync(p) ? p : undefined;
}

/** Official files named in the configuration, where given (PL/AT/CH/LI: their GeoNames file in GEONAMES_DIR). */
export function configuredSources(config: AppConfig): Partial<Record<CatalogueCountry, CatalogueSources>> {
  const geonames = (cc: string) => configuredGeonames(config, cc);
  const out: Partial<Record<CatalogueCountry, CatalogueSources>> = {};
  if (config.CZ_CATALOGUE_CSV) out.CZ = { country: 'CZ', sources: { pscList: config.CZ_CATALOGUE_CSV, geonames: geonames('CZ') } };
  if (config.SK_REGISTER_BATCHES) {
    out.SK = { country: 'SK', sources: { register: config.SK_REGISTER_BATCHES.split(','), geonames: geonames('SK') } };
  }
  for (const cc of GEONAMES_CATALOGUE_COUNTRIES) {
    const file = geonames(cc);
    if (file) out[cc] = { country: cc, sources: { geonames: file } };
  }
  return out;
}

export async function importCatalogue(store: PlacesStore, sources: CatalogueSources, label: string): Promise<CatalogueImportReport> {
  return (await importLoadedCatalogue(store, sources, label)).report;
}

async function importLoadedCatalogue(store: PlacesStore, sources: CatalogueSources, label: string): Promise<{ report: CatalogueImportReport; catalogue: Catalogue }> {
  const loaded = await loadCatalogue(sources);
  await store.replaceCatalogue(sources.country, loaded.docs);
  const r = loaded.report;
  const report = { country: sources.country, source: label, regions: r.regions, counties: r.counties, municipalities: r.municipalities, withoutCoordinates: r.withoutCoordinates, errors: r.errors };
  return { report, catalogue: loaded.catalogue };
}

/**
 * The catalogue, then (when the sources name a GeoNames file) its postal codes placed in that
 * catalogue's municipalities: what `npm run import -- catalogue <CC> --geonames <CC>.txt` does.
 */
export async function importCatalogueAndPostalCodes(
  store: PlacesStore,
  sources: CatalogueSources,
  label: string,
): Promise<{ catalogue: CatalogueImportReport; geonames: GeonamesPlacesSummary | null }> {
  const { report, catalogue } = await importLoadedCatalogue(store, sources, label);
  const file = sources.sources.geonames;
  const geonames = file ? await importGeonamesPlaces(store, { country: sources.country, file, catalogue, skipMunicipalities: true }, label) : null;
  return { catalogue: report, geonames };
}

/** Configured official files first, else (SAMPLE_DATA) the sample; `onlyIfEmpty` keeps what a store already has. */
export async function importCatalogues(store: PlacesStore, config: AppConfig, opts: { onlyIfEmpty: boolean }): Promise<CatalogueImportReport[]> {
  const configured = configuredSources(config);
  const sample = config.SAMPLE_DATA ? sampleSources() : {};
  const reports: CatalogueImportReport[] = [];
  for (const cc of CATALOGUE_COUNTRIES) {
    const src = configured[cc] ?? sample[cc as keyof typeof sample];
    if (!src) continue;
    if (opts.onlyIfEmpty && (await store.count(cc, 'region')) > 0) continue;
    // The sample comes whole or not at all: never beside official addresses (configured, or imported before the first start).
    if (!configured[cc] && ((cc === 'CZ' && config.CZ_ADDRESSES) || (opts.onlyIfEmpty && (await store.count(cc, 'address')) > 0))) continue;
    reports.push(await importCatalogue(store, src, configured[cc] ? 'configured files' : 'bundled sample'));
  }
  return reports;
}

export interface GeonamesPlacesSummary {
  country: CountryCode;
  source: string;
  /** Postal-code and municipality documents written. */
  docs: number;
  report: GeonamesImportReport;
}

/**
 * The store's answer to "which of these ids do you hold?". A country without address points has
 * no register-derived documents, so nothing is looked up; otherwise the ids are read in batches
 * (GeoNames gives at most ~20 000 postal codes a country).
 */
const PRESENT_BATCH = 1000;

export async function presentIn(store: PlacesStore, country: CountryCode): Promise<(ids: string[]) => Promise<ReadonlySet<string>>> {
  if ((await store.count(country, 'address')) === 0) return async () => new Set();
  return async (ids) => {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += PRESENT_BATCH) for (const d of await store.getMany(ids.slice(i, i + PRESENT_BATCH))) out.add(d.place_id);
    return out;
  };
}

/**
 * GeoNames postal codes (all six countries) and PL/AT/CH/LI municipalities into the store,
 * except the ids the store already holds: a register import's own derived postal-code and
 * municipality documents win (see importers/geonames/README.md). Run after the catalogue; a
 * register import that comes later overwrites the same ids with its own.
 */
export async function importGeonamesPlaces(
  store: PlacesStore,
  src: { country: CountryCode; file: string; catalogue?: Catalogue; skipMunicipalities?: boolean },
  label: string,
): Promise<GeonamesPlacesSummary> {
  let report: GeonamesImportReport | undefined;
  const present = await presentIn(store, src.country);
  // At most ~23 000 docs: plain upserts, not the bulk path, whose index rebuild and FTS merge at the end cost as much as the whole store.
  let docs = 0;
  for await (const batch of geonamesPlaceDocs({ ...src, present, batchSize: 2000, onReport: (r) => (report = r) })) {
    await store.upsert(batch);
    docs += batch.length;
  }
  return { country: src.country, source: label, docs, report: report! };
}

/**
 * GeoNames places for `countries` (those whose catalogue this start imported) from the configured
 * GEONAMES_DIR file or else (SAMPLE_DATA) the bundled one. Run after the address import, so the
 * register's own postal codes are present and kept.
 */
export async function importGeonamesPlacesFor(store: PlacesStore, config: AppConfig, countries: readonly CountryCode[]): Promise<GeonamesPlacesSummary[]> {
  const out: GeonamesPlacesSummary[] = [];
  const sample = sampleSources();
  for (const cc of CATALOGUE_COUNTRIES) {
    if (!countries.includes(cc)) continue;
    const configured = configuredGeonames(config, cc);
    const file = configured ?? (config.SAMPLE_DATA ? sample[cc].sources.geonames : undefined);
    if (!file) continue;
    // CZ/SK postal codes are placed in the register catalogue's municipalities.
    const catalogue = cc === 'CZ' || cc === 'SK' ? (await loadCatalogue(configuredSources(config)[cc] ?? sample[cc])).catalogue : undefined;
    // The catalogue import just wrote the PL/AT/CH/LI municipalities (the same docs): postal codes only.
    out.push(await importGeonamesPlaces(store, { country: cc, file, catalogue, skipMunicipalities: true }, configured ? 'configured files' : 'bundled sample'));
  }
  return out;
}

export interface AddressImportSummary {
  country: CountryCode;
  source: string;
  /** The format of the files read (`ruian-csv`, `pl-prg-gml`, ...). */
  format: string;
  docs: number;
  addresses: number;
  seconds: number;
  errors: string[];
}

/** The bundled RUIAN-format address sample (see fixtures/ruian-sample/README.md). */
export function sampleAddressSources(): { zipOrDir: string; pscList: string } {
  const dir = join(projectRoot(), 'libs/places/src/fixtures');
  return { zipOrDir: join(dir, 'ruian-sample/CSV'), pscList: join(dir, 'cz/psc-list.csv') };
}

/** RUIAN address points (zip or folder) through the importer into the store's bulk path. */
export async function importRuianAddresses(store: PlacesStore, src: { zipOrDir: string; pscList: string }, label: string): Promise<AddressImportSummary> {
  let report: AddressImportReport | undefined;
  const loaded = await store.bulkLoad(ruianPlaceDocs({ zipOrDir: src.zipOrDir, catalogue: { pscList: src.pscList }, batchSize: 5000, onReport: (r) => (report = r) }));
  return { country: 'CZ', source: label, format: 'ruian-csv', docs: loaded.docs, addresses: report?.addresses ?? 0, seconds: loaded.seconds, errors: report?.errors ?? [] };
}

/**
 * Configured RUIAN files first, else (SAMPLE_DATA) the sample; only into a store without CZ
 * addresses, and the sample only into the sample's catalogue (`catalogueIsSample`).
 */
export async function importAddressesIfEmpty(store: PlacesStore, config: AppConfig, catalogueIsSample = true): Promise<AddressImportSummary[]> {
  if ((await store.count('CZ', 'address')) > 0) return [];
  if (config.CZ_ADDRESSES) {
    const pscList = config.CZ_CATALOGUE_CSV ?? sampleAddressSources().pscList;
    return [await importRuianAddresses(store, { zipOrDir: config.CZ_ADDRESSES, pscList }, 'configured files')];
  }
  if (!config.SAMPLE_DATA || !catalogueIsSample) return [];
  return [await importRuianAddresses(store, sampleAddressSources(), 'bundled sample')];
}
