import { CountryCode } from '@lookup/contracts';
import { CH_CANTONS } from '../ch/cantons';

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
 * Official names (GUS TERYT TERC, `NAZWA` of the powiat's row; checked against the whole
 * `TERC_Urzedowy_2025-11-18.xml` in `ttomasz/prg_convert`, see fixtures/pl/README.md) of the powiats the GeoNames PL file names only in English
 * (`Głogów County`, `Leszno_County`, `Warsaw West County`), by TERYT powiat code. The file holds no
 * Polish form of these 36: the official name is an adjective (`głogowski`, `leszczyński`,
 * `karkonoski` for `Jelenia Góra County`) that cannot be derived from the town's name. Powiats
 * GeoNames writes in Polish (`Powiat bolesławiecki`) are named from the file, not from here.
 */
export const PL_POWIATS_NAMED_IN_ENGLISH: Readonly<Record<string, string>> = {
  '0203': 'głogowski',
  '0204': 'górowski',
  '0205': 'jaworski',
  '0206': 'karkonoski',
  '0207': 'kamiennogórski',
  '0208': 'kłodzki',
  '0210': 'lubański',
  '0211': 'lubiński',
  '0212': 'lwówecki',
  '0213': 'milicki',
  '0214': 'oleśnicki',
  '0215': 'oławski',
  '0216': 'polkowicki',
  '0217': 'strzeliński',
  '0218': 'średzki',
  '0219': 'świdnicki',
  '0220': 'trzebnicki',
  '0221': 'wałbrzyski',
  '0222': 'wołowski',
  '0224': 'ząbkowicki',
  '0225': 'zgorzelecki',
  '0226': 'złotoryjski',
  '0415': 'toruński',
  '0603': 'chełmski',
  '1019': 'zduńskowolski',
  '1425': 'radomski',
  '1432': 'warszawski zachodni',
  '1602': 'głubczycki',
  '1816': 'rzeszowski',
  '2007': 'łomżyński',
  '2204': 'gdański',
  '2402': 'bielski',
  '2415': 'wodzisławski',
  '2612': 'staszowski',
  '3010': 'koniński',
  '3013': 'leszczyński',
};

/**
 * PL powiat names as the API's `county` field shows them, the way TERYT writes them: lowercase
 * `powiat` + the adjective (`powiat bolesławiecki`). GeoNames mixes `Powiat bolesławiecki`,
 * `powiat Łowicki` (adjective lowercased here), English `Głogów County` / `Leszno_County` (named
 * from PL_POWIATS_NAMED_IN_ENGLISH; a code not there falls back to `powiat Głogów`) and bare city
 * names for the cities with powiat rights. A city powiat (codes x61 and up) is the city itself
 * (`Wrocław`), named by its own gmina when GeoNames lists it (`Łódź` rather than the English `Lodz`).
 */
export function plCountyName(code: string, admin2Name: string, cityGminaName?: string): string {
  const name = admin2Name.replace(/_/g, ' ').trim();
  if (Number(code.slice(2)) >= 61) return cityGminaName ?? name;
  const polish = /^powiat\s+(.+)$/i.exec(name);
  if (polish) return `powiat ${lowercaseAdjectives(polish[1]!)}`;
  const english = /^(.+?)\s+County$/i.exec(name);
  if (english) return `powiat ${PL_POWIATS_NAMED_IN_ENGLISH[code] ?? english[1]}`;
  return name;
}

/** `Łowicki` -> `łowicki`: powiat names are adjectives, lowercase in TERYT; nouns (`Głogów`) stay. */
function lowercaseAdjectives(name: string): string {
  return name.replace(/\p{Lu}\p{Ll}*(?:ski|cki|dzki)(?=\s|$)/gu, (w) => w.toLocaleLowerCase('pl'));
}

/** PL gmina names without the `Gmina ` GeoNames puts before 1 117 of them (`Gmina Gromadka` -> `Gromadka`). */
export function plMunicipalityName(admin3Name: string): string {
  return admin3Name.replace(/_/g, ' ').trim().replace(/^gmina\s+/i, '');
}

/** The gmina names of one GeoNames PL file (see plGminaNames). */
export interface PlGminaNames {
  /** The name of gmina `code` on a row whose admin3Name reads `admin3Name`. */
  name(code: string, admin3Name: string): string;
}

/** Names as the rows write them (less `Gmina `), for a row read without its file. */
export const PL_GMINA_NAMES_AS_WRITTEN: PlGminaNames = { name: (_code, admin3Name) => plMunicipalityName(admin3Name) };

/**
 * PL gmina names, corrected from the file's own Polish columns where its admin3Name (column 8) is
 * not a Polish name. Only a name that is no place anywhere in the file (column 3, letter case
 * aside) is replaced, and only by a name the file itself writes for the same unit:
 * - a city with powiat rights (powiat x61 and up, one gmina) by the powiat's name (column 6) when
 *   that is a place of the file: `Warsaw` (146501) is `Warszawa`, as column 6 and the place of all
 *   its 3 739 rows read;
 * - a gmina whose rows all name one place written inside its name, by that place: `gmina Miasto
 *   Łowicz` (100501, one row `Łowicz`) is `Łowicz`, as TERYT names it.
 * Every other gmina keeps GeoNames' name: those named after a town the file lists in another gmina
 * (`Bolesławiec` 020102), after one of several villages (`Bystra-Sidzina`), or after a village the
 * file happens not to list (`Stare Babice` in a file whose one row of it is `Lipków`).
 * Of two gminas of one powiat that then share a name, the one without a place of that name is the
 * rural gmina around the town: `Bolesławiec (gmina wiejska)` (PL_RURAL_GMINA).
 */
export function plGminaNames(rows: readonly { place: string; admin2Name: string; admin2Code: string; admin3Name: string; admin3Code: string }[]): PlGminaNames {
  const key = (s: string) => s.replace(/_/g, ' ').trim().toLocaleLowerCase('pl');
  const places = new Set(rows.map((r) => key(r.place)));
  const gminas = new Map<string, { names: Set<string>; places: Set<string>; cityNames: Set<string> }>();
  for (const r of rows) {
    let g = gminas.get(r.admin3Code);
    if (!g) gminas.set(r.admin3Code, (g = { names: new Set(), places: new Set(), cityNames: new Set() }));
    g.names.add(plMunicipalityName(r.admin3Name));
    g.places.add(r.place.trim());
    if (/^\d{4}$/.test(r.admin2Code) && Number(r.admin2Code.slice(2)) >= 61) g.cityNames.add(r.admin2Name.trim());
  }
  const renamed = new Map<string, string>();
  for (const [code, g] of gminas) {
    const city = [...g.cityNames].filter((n) => places.has(key(n)));
    const only = g.places.size === 1 ? [...g.places][0]! : null;
    for (const name of g.names) {
      if (places.has(key(name))) continue;
      if (city.length === 1) renamed.set(`${code}\t${name}`, city[0]!);
      else if (only && containsWords(name, only)) renamed.set(`${code}\t${name}`, only);
    }
  }
  const named = (code: string, name: string) => renamed.get(`${code}\t${name}`) ?? name;
  // Same-name gminas of one powiat: a town (gmina miejska) and the rural gmina around it, which TERYT tells apart only by its type.
  const rural = new Set<string>();
  const byName = new Map<string, string[]>();
  for (const [code, g] of gminas) {
    if (g.names.size !== 1) continue;
    const k = `${code.slice(0, 4)}\t${key(named(code, [...g.names][0]!))}`;
    byName.set(k, [...(byName.get(k) ?? []), code]);
  }
  for (const [k, codes] of byName) {
    if (codes.length < 2) continue;
    const name = k.split('\t')[1]!;
    const towns = codes.filter((c) => [...gminas.get(c)!.places].some((p) => key(p) === name));
    if (towns.length === 1) for (const c of codes) if (c !== towns[0]) rural.add(c);
  }
  return {
    name: (code, admin3Name) => {
      const name = named(code, plMunicipalityName(admin3Name));
      return rural.has(code) ? `${name} ${PL_RURAL_GMINA}` : name;
    },
  };
}

/**
 * What tells a rural gmina from the town of the same name in its powiat (`Bochnia` 120101, the
 * town, and `Bochnia (gmina wiejska)` 120102, the villages around it): TERYT's own words for the
 * type (its `NAZWA_DOD`), which GeoNames' code leaves out (6 digits, no type digit).
 */
export const PL_RURAL_GMINA = '(gmina wiejska)';

/** `Miasto Łowicz` contains `Łowicz` as whole words, letter case aside. */
function containsWords(name: string, words: string): boolean {
  return ` ${name.toLocaleLowerCase('pl')} `.includes(` ${words.toLocaleLowerCase('pl')} `);
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

/**
 * Where the CH names come from: the Federal Statistical Office's official commune register
 * (BFS, Amtliches Gemeindeverzeichnis 01.01.2023, sheets KT and BZN, as `lgnbhl/BFS` packages them
 * in `data/register_kt.rda` and `data/register_bzn.rda`, commit 6b02bbcac42cd9de55dbc8f07ee1ae28488207a2).
 *
 * Cantons: BFS's official name (`GDEKTNA`), the one the address register's importer shows too
 * (CH_CANTONS: `Zürich`, `Genève`, `Ticino`; the bilingual and trilingual cantons as BFS writes
 * them, `Bern / Berne`, `Graubünden / Grigioni / Grischun`). GeoNames writes `Kanton Zürich`, the
 * French exonym `Canton de Berne` and `Canton du Valais`. A canton not in the table (none of the
 * file's 26) keeps GeoNames' name without `Kanton`/`Canton de`.
 */
export function chRegionName(abbreviation: string, admin1Name: string): string {
  return CH_CANTONS[abbreviation] ?? chBareName(admin1Name);
}

/**
 * BFS names of the districts (`GDEBZNA`, less the designation) whose GeoNames name, bared by
 * chBareName, is not BFS's: English (`Lucerne-Stadt District`, `Lake District`), another case
 * (`Ouest Lausannois District`) or without BFS's qualifier (`Bezirk Küssnacht`). Every other
 * district of the file bares to BFS's name.
 */
export const CH_DISTRICTS_NAMED_OTHERWISE: Readonly<Record<string, string>> = {
  '311': 'Luzern-Stadt',
  '312': 'Luzern-Land',
  '504': 'Küssnacht (SZ)',
  '1005': 'See / Lac',
  '2229': 'Ouest lausannois',
};

/**
 * CH district (county) names bare, like AT and CZ counties: BFS's name without its designation
 * (`Bezirk`, `Verwaltungskreis`, `Wahlkreis`, `Region`, `District de`, `Distretto di`), in the
 * district's own language. GeoNames writes `Bezirk Affoltern`, `Region Albula`, `Wahlkreis
 * See-Gaster` and, for 66 districts (BE, LU, FR, TG, TI, VD, VS, NE, JU), English `Aigle
 * District`, `Lugano District`; these become `Affoltern`, `Albula`, `See-Gaster`, `Aigle`,
 * `Lugano`. A canton without districts (BFS number x00: Uri, Basel-Stadt, GeoNames' English
 * `Geneva` and `Appenzell Inner Rhodes`) is its canton (`cantonName`), as BFS lists it.
 */
export function chCountyName(code: string, admin2Name: string, cantonName: string): string {
  if (Number(code) % 100 === 0) return cantonName;
  return CH_DISTRICTS_NAMED_OTHERWISE[code] ?? chBareName(admin2Name);
}

/** `Kanton Aargau`, `Canton du Valais`, `Bezirk Zürich`, `District d'Aigle`, `Aigle District` -> the name alone. */
function chBareName(name: string): string {
  return name
    .trim()
    .replace(/^(?:Kanton|Bezirk|Halbbezirk|Amt|Verwaltungskreis|Wahlkreis|Region|Arrondissement administratif|Canton|District|Distretto)\s+(?:de la\s+|de l'|des\s+|du\s+|de\s+|d'|di\s+)?/i, '')
    .replace(/\s+District$/i, '');
}
