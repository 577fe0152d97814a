import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CountryCode } from '@lookup/contracts';
import { AppConfig, projectRoot } from '@lookup/shared/config';
import { PlacesStore } from '../store/places.store';
import { loadCatalogue, CatalogueRequest as CatalogueSources } from '../importers/catalogue.loader';

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
