import { COUNTRY_CODES, CountryCode } from '@lookup/contracts';
import { DatasetKind } from '../datasets/dataset-event';

export interface FormatInfo {
  kinds: DatasetKind[];
  countries: readonly CountryCode[];
}

/**
 * Which dataset each format carries, so the CLI can refuse a mismatch (an SK register given as
 * CZ, a change batch given as a full import) before anything is read or published. The
 * importers themselves are the pipeline's registry (`pipeline/importers.ts`); a new format
 * there gets one line here.
 */
export const FORMATS: Record<string, FormatInfo> = {
  'ruian-csv': { kinds: ['addresses'], countries: ['CZ'] },
  'sk-register': { kinds: ['addresses'], countries: ['SK'] },
  'sk-register-xml': { kinds: ['address-changes'], countries: ['SK'] },
  'ruian-vfr': { kinds: ['address-changes'], countries: ['CZ'] },
  'cz-catalogue-csv': { kinds: ['catalogue'], countries: ['CZ'] },
  geonames: { kinds: ['postal-codes'], countries: COUNTRY_CODES },
  'cz-res-csv': { kinds: ['business'], countries: ['CZ'] },
  'cz-ares-json': { kinds: ['business'], countries: ['CZ'] },
  'sk-rpo-json': { kinds: ['business'], countries: ['SK'] },
  'pl-prg-gml': { kinds: ['addresses'], countries: ['PL'] },
  'at-bev-csv': { kinds: ['addresses'], countries: ['AT'] },
  'ch-swisstopo-csv': { kinds: ['addresses'], countries: ['CH'] },
  // LI addresses: an .osm.pbf extract or swisstopo's building-address CSV (its LI rows); liPlaceDocs tells them apart.
  'li-osm-pbf': { kinds: ['addresses'], countries: ['LI'] },
};

export function formatsFor(kind: DatasetKind, country: CountryCode): string[] {
  return Object.entries(FORMATS)
    .filter(([, f]) => f.kinds.includes(kind) && f.countries.includes(country))
    .map(([name]) => name);
}
