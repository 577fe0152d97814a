import { CountryCode } from '@lookup/contracts';

/** The countries whose catalogue is built from GeoNames (their registers carry no catalogue of their own). */
export const GEONAMES_CATALOGUE_COUNTRIES = ['PL', 'AT', 'CH', 'LI'] as const;
export type GeonamesCatalogueCountry = (typeof GEONAMES_CATALOGUE_COUNTRIES)[number];

export function isGeonamesCatalogueCountry(c: string): c is GeonamesCatalogueCountry {
  return (GEONAMES_CATALOGUE_COUNTRIES as readonly string[]).includes(c);
}

/** Digits in a postal code of each country (postal codes are stored as digits only). */
export const POSTAL_CODE_DIGITS: Record<CountryCode, number> = { CZ: 5, SK: 5, PL: 5, AT: 4, CH: 4, LI: 4 };

/**
 * TERYT voivodeships (code = first two digits of the powiat code) with their official Polish
 * names. GeoNames admin1 for PL is its own numbering (`72`) with English names (`Lower Silesia`),
 * so the region is taken from the powiat code and named here.
 */
export const PL_VOIVODESHIPS: Readonly<Record<string, string>> = {
  '02': 'dolnośląskie',
  '04': 'kujawsko-pomorskie',
  '06': 'lubelskie',
  '08': 'lubuskie',
  '10': 'łódzkie',
  '12': 'małopolskie',
  '14': 'mazowieckie',
  '16': 'opolskie',
  '18': 'podkarpackie',
  '20': 'podlaskie',
  '22': 'pomorskie',
  '24': 'śląskie',
  '26': 'świętokrzyskie',
  '28': 'warmińsko-mazurskie',
  '30': 'wielkopolskie',
  '32': 'zachodniopomorskie',
};

/**
 * Liechtenstein's municipalities by name with their official BFS numbers and region
 * (Oberland/Unterland). GeoNames numbers them 7001..7011 in another order, so they are matched by name.
 */
export const LI_MUNICIPALITIES: Readonly<Record<string, { bfs: string; region: 'oberland' | 'unterland' }>> = {
  Balzers: { bfs: '7001', region: 'oberland' },
  Eschen: { bfs: '7002', region: 'unterland' },
  Gamprin: { bfs: '7003', region: 'unterland' },
  Mauren: { bfs: '7004', region: 'unterland' },
  Planken: { bfs: '7005', region: 'oberland' },
  Ruggell: { bfs: '7006', region: 'unterland' },
  Schaan: { bfs: '7007', region: 'oberland' },
  Schellenberg: { bfs: '7008', region: 'unterland' },
  Triesen: { bfs: '7009', region: 'oberland' },
  Triesenberg: { bfs: '7010', region: 'oberland' },
  Vaduz: { bfs: '7011', region: 'oberland' },
};

export const LI_REGIONS: Readonly<Record<'oberland' | 'unterland', string>> = { oberland: 'Oberland', unterland: 'Unterland' };

/**
 * PL powiat names as the API's `county` field shows them: GeoNames mixes `Powiat bolesławiecki`,
 * `powiat Łowicki`, English `Głogów County` and bare city names for the cities with powiat
 * rights. Written the Polish way, lowercase `powiat` + name (`powiat bolesławiecki`,
 * `powiat Głogów`); a city powiat (codes x61 and up) is the city itself (`Wrocław`), named by its
 * own gmina when GeoNames lists it (`Łódź` rather than the English `Lodz`).
 */
export function plCountyName(code: string, admin2Name: string, cityGminaName?: string): string {
  if (Number(code.slice(2)) >= 61) return cityGminaName ?? admin2Name;
  const name = admin2Name.trim();
  const polish = /^powiat\s+(.+)$/i.exec(name);
  if (polish) return `powiat ${polish[1]}`;
  const english = /^(.+?)\s+County$/i.exec(name);
  return english ? `powiat ${english[1]}` : name;
}

/** PL gmina names without the `Gmina ` GeoNames puts before 1 117 of them (`Gmina Gromadka` -> `Gromadka`). */
export function plMunicipalityName(admin3Name: string): string {
  return admin3Name.trim().replace(/^gmina\s+/i, '');
}

/** AT Bezirk names bare, as CZ okres names are: `Politischer Bezirk Güssing` -> `Güssing`; statutory cities (`Graz Stadt`) as written. */
export function atCountyName(admin2Name: string): string {
  return admin2Name.trim().replace(/^Politischer\s+Bezirk\s+/i, '');
}

/** Vienna is one municipality (GKZ 90001) in one Bezirk (900); GeoNames files its 23 Gemeindebezirke (901..923) as admin3. */
export const AT_VIENNA = { county: '900', municipality: '90001', name: 'Wien' } as const;

/** `Gemeindebezirk Innere Stadt` -> `Innere Stadt`. */
export function atViennaDistrictName(admin3Name: string): string {
  return admin3Name.trim().replace(/^Gemeindebezirk\s+/i, '');
}

/** CH cantons without GeoNames' `Kanton `/`Canton de ` (`Kanton Aargau` -> `Aargau`, `Canton du Valais` -> `Valais`). */
export function chRegionName(admin1Name: string): string {
  return admin1Name.trim().replace(/^(Kanton|Canton)\s+(de\s+|du\s+|d')?/i, '');
}
