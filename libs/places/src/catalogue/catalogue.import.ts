import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CountryCode } from '@lookup/contracts';
import { AppConfig, projectRoot } from '@lookup/shared/config';
import { PlacesStore } from '../store/places.store';
import { loadCatalogue, CatalogueRequest as CatalogueSources } from '../importers/catalogue.loader';
import { AddressImportReport, ruianPlaceDocs } from '../importers/address-import';

export interface CatalogueImportReport {
  country: CountryCode;
  source: string;
  regions: number;
  counties: number;
  municipalities: number;
  withoutCoordinates: number;
  errors: string[];
}

/** The bundled sample: small files the project wrote in the official formats. */
export function sampleSources(): Record<'CZ' | 'SK', CatalogueSources> {
  const dir = join(projectRoot(), 'libs/places/src/fixtures');
  return {
    CZ: { country: 'CZ', sources: { pscList: join(dir, 'cz/psc-list.csv'), geonames: join(dir, 'geonames/CZ.txt') } },
    SK: { country: 'SK', sources: { register: join(dir, 'sk/DavkaInit-catalogue.xml'), geonames: join(dir, 'geonames/SK.txt') } },
  };
}

/** Official files named in the configuration, where given. */
export function configuredSources(config: AppConfig): Partial<Record<'CZ' | 'SK', CatalogueSources>> {
  const geonames = (cc: string) => {
    const p = config.GEONAMES_DIR ? join(config.GEONAMES_DIR, `${cc}.txt`) : undefined;
    return p && existsSync(p) ? p : undefined;
  };
  const out: Partial<Record<'CZ' | 'SK', CatalogueSources>> = {};
  if (config.CZ_CATALOGUE_CSV) out.CZ = { country: 'CZ', sources: { pscList: config.CZ_CATALOGUE_CSV, geonames: geonames('CZ') } };
  if (config.SK_REGISTER_BATCHES) {
    out.SK = { country: 'SK', sources: { register: config.SK_REGISTER_BATCHES.split(','), geonames: geonames('SK') } };
  }
  return out;
}

export async function importCatalogue(store: PlacesStore, sources: CatalogueSources, label: string): Promise<CatalogueImportReport> {
  const loaded = await loadCatalogue(sources);
  await store.replaceCatalogue(sources.country, loaded.docs);
  const r = loaded.report;
  return { country: sources.country, source: label, regions: r.regions, counties: r.counties, municipalities: r.municipalities, withoutCoordinates: r.withoutCoordinates, errors: r.errors };
}

/** Configured official files first, else (SAMPLE_DATA) the sample; `onlyIfEmpty` keeps what a store already has. */
export async function importCatalogues(store: PlacesStore, config: AppConfig, opts: { onlyIfEmpty: boolean }): Promise<CatalogueImportReport[]> {
  const configured = configuredSources(config);
  const sample = config.SAMPLE_DATA ? sampleSources() : {};
  const reports: CatalogueImportReport[] = [];
  for (const cc of ['CZ', 'SK'] as const) {
    const src = configured[cc] ?? sample[cc as keyof typeof sample];
    if (!src) continue;
    if (opts.onlyIfEmpty && (await store.count(cc, 'region')) > 0) continue;
    reports.push(await importCatalogue(store, src, configured[cc] ? 'configured files' : 'bundled sample'));
  }
  return reports;
}

export interface AddressImportSummary {
  country: CountryCode;
  source: string;
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
  return { country: 'CZ', source: label, docs: loaded.docs, addresses: report?.addresses ?? 0, seconds: loaded.seconds, errors: report?.errors ?? [] };
}

/** Configured RUIAN files first, else (SAMPLE_DATA) the sample; only into a store without CZ addresses. */
export async function importAddressesIfEmpty(store: PlacesStore, config: AppConfig): Promise<AddressImportSummary[]> {
  if ((await store.count('CZ', 'address')) > 0) return [];
  if (config.CZ_ADDRESSES) {
    const pscList = config.CZ_CATALOGUE_CSV ?? sampleAddressSources().pscList;
    return [await importRuianAddresses(store, { zipOrDir: config.CZ_ADDRESSES, pscList }, 'configured files')];
  }
  if (!config.SAMPLE_DATA) return [];
  return [await importRuianAddresses(store, sampleAddressSources(), 'bundled sample')];
}
