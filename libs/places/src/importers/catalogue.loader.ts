import { PlaceDoc } from '../domain/place.doc';
import { assignCoordinates, CoordinateReport } from './catalogue-coordinates';
import { Catalogue, estimateTownWeights } from './catalogue.types';
import { readCzCatalogueCsv } from './cz/cz-catalogue-csv.reader';
import { buildCzCatalogue } from './cz/cz-catalogue.builder';
import { loadGeonamesPostal } from './geonames/geonames.reader';
import { GeonamesCatalogueCountry } from './geonames/geonames-names';
import { loadGeonamesCatalogue } from './geonames/geonames-catalogue';
import { SK_CATALOGUE_TYPES, SkCatalogueBuilder } from './sk/sk-catalogue.builder';
import { readRegisterChanges } from './sk/sk-register-xml.reader';

export interface SkCatalogueSources {
  /** Register adries batches: XML files, zips of them or folders, applied together (order does not matter). */
  register: string | string[];
  /** Which members of a zip or folder are batches; default `*.xml`. */
  entryPattern?: RegExp;
  /** GeoNames `SK.txt`; without it every position stays null. */
  geonames?: string;
  /** The catalogue as valid at this moment; default now. */
  asOf?: Date;
}

export interface CzCatalogueSources {
  /** `psc-list.csv`. */
  pscList: string;
  /** GeoNames `CZ.txt`; without it every position stays null. */
  geonames?: string;
}

/** PL, AT, CH, LI: their catalogue comes from the GeoNames postal file alone (see geonames/README.md). */
export interface GeonamesCatalogueSources {
  /** GeoNames `PL.txt`, `AT.txt`, `CH.txt` or `LI.txt`. */
  geonames: string;
}

export type CatalogueRequest =
  | { country: 'SK'; sources: SkCatalogueSources }
  | { country: 'CZ'; sources: CzCatalogueSources }
  | { country: GeonamesCatalogueCountry; sources: GeonamesCatalogueSources };

export interface CatalogueReport {
  regions: number;
  counties: number;
  municipalities: number;
  /** Municipalities left with lat/lng null (PL/AT/CH/LI: always 0, their positions come with the catalogue). */
  withoutCoordinates: number;
  coordinates: CoordinateReport | null;
  errors: string[];
}

export interface LoadedCatalogue {
  /** Regions, then counties, then municipalities, each sorted by place_id. */
  docs: PlaceDoc[];
  report: CatalogueReport;
  /** The structured catalogue (same doc objects), with CZ postal codes and parts per municipality. */
  catalogue: Catalogue;
}

/** Reads a country's catalogue sources and returns its region, county and municipality docs. */
export async function loadCatalogue(req: CatalogueRequest): Promise<LoadedCatalogue> {
  if (req.country !== 'CZ' && req.country !== 'SK') return loaded(await loadGeonamesCatalogue(req.country, req.sources.geonames), null);
  const cat = req.country === 'SK' ? await readSk(req.sources) : await readCz(req.sources);
  let coordinates: CoordinateReport | null = null;
  if (req.sources.geonames) {
    const { rows, errors } = await loadGeonamesPostal(req.sources.geonames);
    cat.errors.push(...errors.map((e) => `geonames line ${e.line}: ${e.message}`));
    coordinates = assignCoordinates(cat, rows);
  }
  return loaded(cat, coordinates);
}

function loaded(cat: Catalogue, coordinates: CoordinateReport | null): LoadedCatalogue {
  estimateTownWeights(cat);
  return {
    docs: [...cat.regions, ...cat.counties, ...cat.municipalities],
    catalogue: cat,
    report: {
      regions: cat.regions.length,
      counties: cat.counties.length,
      municipalities: cat.municipalities.length,
      withoutCoordinates: cat.municipalities.filter((m) => m.lat === null || m.lng === null).length,
      coordinates,
      errors: cat.errors,
    },
  };
}

async function readSk(s: SkCatalogueSources): Promise<Catalogue> {
  const builder = new SkCatalogueBuilder(s.asOf);
  for (const path of Array.isArray(s.register) ? s.register : [s.register]) {
    const records = readRegisterChanges(path, { types: SK_CATALOGUE_TYPES, entryPattern: s.entryPattern });
    for await (const rec of records) builder.apply(rec);
  }
  return builder.build();
}

async function readCz(s: CzCatalogueSources): Promise<Catalogue> {
  const rowErrors: string[] = [];
  const rows = readCzCatalogueCsv(s.pscList, (e) => rowErrors.push(`${s.pscList} line ${e.line}: ${e.message}`));
  const cat = await buildCzCatalogue(rows);
  cat.errors.unshift(...rowErrors);
  return cat;
}
