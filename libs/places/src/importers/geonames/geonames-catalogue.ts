import { CountryCode } from '@lookup/contracts';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { round7 } from '../address-aggregates';
import { byPlaceId, Catalogue, emptyCatalogue, estimateTownWeights } from '../catalogue.types';
import { GeonamesPostalRow, loadGeonamesPostal } from './geonames.reader';
import {
  AT_VIENNA,
  atCountyName,
  atViennaDistrictName,
  chCountyName,
  chRegionName,
  GeonamesCatalogueCountry,
  LI_MUNICIPALITIES,
  LI_REGIONS,
  plCountyName,
  PL_GMINA_NAMES_AS_WRITTEN,
  PL_VOIVODESHIPS,
  PlGminaNames,
  plGminaNames,
  POSTAL_CODE_DIGITS,
} from './geonames-names';

/** A region, county or municipality as one row names it: the register code of model.md and a display name. */
export interface AreaRef {
  code: string;
  name: string;
}

/** Where one GeoNames row lies, in the ids and names of the place model; county null in LI. */
export interface RowArea {
  region: AreaRef;
  county: AreaRef | null;
  municipality: AreaRef;
  /** Part of the municipality where GeoNames names one as admin3 (Vienna's Gemeindebezirke), else null. */
  district: string | null;
}

/**
 * The row's region, county and municipality codes per model.md, or why it has none:
 * - PL: voivodeship = first two digits of the TERYT powiat (admin2Code), gmina = admin3Code (6 digits, no type digit);
 * - AT: Bundesland = admin1Code without its leading zero, Bezirk = admin2Code, GKZ = admin3Code;
 * - CH: canton abbreviation (admin1Code), BFS district (admin2Code), BFS municipality (admin3Code);
 * - LI: municipality by its name (admin1Name) to the official BFS number, Oberland/Unterland, no county.
 * PL names: `gminas` names the gminas (plGminaNames: from the place names where GeoNames has no
 * Polish one); `cityGmina` names the PL city powiats by their gmina (see plCountyName).
 */
export function rowArea(
  country: GeonamesCatalogueCountry,
  r: GeonamesPostalRow,
  cityGmina: (code: string) => string | undefined = () => undefined,
  gminas: PlGminaNames = PL_GMINA_NAMES_AS_WRITTEN,
): RowArea | string {
  switch (country) {
    case 'PL': {
      if (!/^\d{4}$/.test(r.admin2Code)) return `powiat code "${r.admin2Code}" is not 4 TERYT digits`;
      if (!/^\d{6}$/.test(r.admin3Code) || !r.admin3Code.startsWith(r.admin2Code)) return `gmina code "${r.admin3Code}" is not 6 TERYT digits in powiat ${r.admin2Code}`;
      const voivodeship = r.admin2Code.slice(0, 2);
      const region = PL_VOIVODESHIPS[voivodeship];
      if (!region) return `powiat code "${r.admin2Code}" names no voivodeship`;
      return {
        region: { code: voivodeship, name: region },
        county: { code: r.admin2Code, name: plCountyName(r.admin2Code, r.admin2Name, cityGmina(`${r.admin2Code}01`)) },
        municipality: { code: r.admin3Code, name: gminas.name(r.admin3Code, r.admin3Name) },
        district: null,
      };
    }
    case 'AT': {
      if (!/^0?[1-9]$/.test(r.admin1Code)) return `Bundesland code "${r.admin1Code}" is not 1 to 9`;
      const land = String(Number(r.admin1Code));
      if (!/^\d{3}$/.test(r.admin2Code) || !r.admin2Code.startsWith(land)) return `Bezirk code "${r.admin2Code}" is not 3 digits in Bundesland ${land}`;
      const county = { code: r.admin2Code, name: atCountyName(r.admin2Name) };
      if (r.admin2Code === AT_VIENNA.county && /^9\d\d$/.test(r.admin3Code)) {
        return { region: { code: land, name: r.admin1Name }, county, municipality: { code: AT_VIENNA.municipality, name: AT_VIENNA.name }, district: atViennaDistrictName(r.admin3Name) };
      }
      if (!/^\d{5}$/.test(r.admin3Code) || !r.admin3Code.startsWith(r.admin2Code)) return `Gemeindekennziffer "${r.admin3Code}" is not 5 digits in Bezirk ${r.admin2Code}`;
      return {
        region: { code: land, name: r.admin1Name },
        county,
        municipality: { code: r.admin3Code, name: r.admin3Name },
        district: null,
      };
    }
    case 'CH': {
      if (!/^[A-Z]{2}$/.test(r.admin1Code)) return `canton "${r.admin1Code}" is not a two-letter abbreviation`;
      if (!/^\d{1,4}$/.test(r.admin2Code)) return `district number "${r.admin2Code}" is not 1 to 4 digits`;
      if (!/^\d{1,4}$/.test(r.admin3Code)) return `BFS municipality number "${r.admin3Code}" is not 1 to 4 digits`;
      const canton = chRegionName(r.admin1Code, r.admin1Name);
      return {
        region: { code: r.admin1Code.toLowerCase(), name: canton },
        county: { code: r.admin2Code, name: chCountyName(r.admin2Code, r.admin2Name, canton) },
        municipality: { code: r.admin3Code, name: r.admin3Name },
        district: null,
      };
    }
    case 'LI': {
      const m = LI_MUNICIPALITIES[r.admin1Name];
      if (!m) return `"${r.admin1Name}" is not one of the 11 municipalities of Liechtenstein`;
      return { region: { code: m.region, name: LI_REGIONS[m.region] }, county: null, municipality: { code: m.bfs, name: r.admin1Name }, district: null };
    }
  }
}

/** Why a row cannot give a postal code of its country, or null. */
export function postalCodeProblem(country: CountryCode, r: GeonamesPostalRow): string | null {
  if (r.country !== country) return `country "${r.country}" in a ${country} file`;
  const digits = POSTAL_CODE_DIGITS[country];
  return r.postalCode.length === digits ? null : `postal code "${r.postalCodeRaw}" does not have ${digits} digits`;
}

/** Running mean of positions. */
class Centroid {
  private n = 0;
  lat = 0;
  lng = 0;

  add(r: { lat: number; lng: number }): void {
    this.n++;
    this.lat += (r.lat - this.lat) / this.n;
    this.lng += (r.lng - this.lng) / this.n;
  }

  get count(): number {
    return this.n;
  }
}

interface Entry {
  doc: PlaceDoc;
  at: Centroid;
}

/**
 * Folds GeoNames postal rows of one country into its catalogue (ids of model.md, names as in
 * geonames-names.ts). Positions are the mean of the rows' positions at each level; a municipality
 * weighs its postal codes (estimateTownWeights), as every catalogue's municipality does. A code read again with another name keeps the first and records an
 * error; rows that name no valid area are reported in `errors` and left out.
 */
export function buildGeonamesCatalogue(country: GeonamesCatalogueCountry, rows: GeonamesPostalRow[]): Catalogue {
  const cat = emptyCatalogue(country);
  const gminas = country === 'PL' ? plGminaNames(rows) : PL_GMINA_NAMES_AS_WRITTEN;
  const gminaNames = new Map<string, string>();
  if (country === 'PL') for (const r of rows) if (!gminaNames.has(r.admin3Code)) gminaNames.set(r.admin3Code, gminas.name(r.admin3Code, r.admin3Name));
  const levels = { region: new Map<string, Entry>(), county: new Map<string, Entry>(), municipality: new Map<string, Entry>() };
  const once = (kind: keyof typeof levels, ref: AreaRef, r: GeonamesPostalRow, fill: (d: PlaceDoc) => void): Entry => {
    const id = placeId(country, kind, ref.code);
    let e = levels[kind].get(id);
    if (!e) {
      e = { doc: emptyDoc(country, kind, id, ref.name), at: new Centroid() };
      fill(e.doc);
      levels[kind].set(id, e);
    } else if (e.doc.name !== ref.name) {
      cat.errors.push(`line ${r.line}: ${kind} ${ref.code} reads "${ref.name}", earlier "${e.doc.name}"; kept the earlier`);
    }
    e.at.add(r);
    return e;
  };
  for (const r of rows) {
    const problem = postalCodeProblem(country, r);
    const area = problem ?? rowArea(country, r, (code) => gminaNames.get(code), gminas);
    if (typeof area === 'string') {
      cat.errors.push(`line ${r.line}: ${area}: left out of the catalogue`);
      continue;
    }
    const region = once('region', area.region, r, () => undefined).doc;
    const county = area.county
      ? once('county', area.county, r, (d) => {
          d.region_id = region.place_id;
          d.region = region.name;
        }).doc
      : null;
    const municipality = once('municipality', area.municipality, r, (d) => {
      // Its own id too, as the register-derived municipality docs have it: a `context` filter on it keeps it.
      d.municipality_id = d.place_id;
      d.municipality = d.name;
      d.region_id = region.place_id;
      d.region = region.name;
      d.county_id = county?.place_id ?? null;
      d.county = county?.name ?? null;
    }).doc;
    const codes = cat.postalCodes.get(municipality.place_id);
    if (codes) codes.add(r.postalCode);
    else cat.postalCodes.set(municipality.place_id, new Set([r.postalCode]));
  }
  const docs = (kind: keyof typeof levels) =>
    [...levels[kind].values()]
      .map(({ doc, at }) => {
        doc.lat = round7(at.lat);
        doc.lng = round7(at.lng);
        return doc;
      })
      .sort(byPlaceId);
  cat.regions = docs('region');
  cat.counties = docs('county');
  cat.municipalities = docs('municipality');
  estimateTownWeights(cat);
  return cat;
}

/** Reads a GeoNames postal file (`PL.txt` ...) into the country's catalogue; unreadable lines are in `errors`. */
export async function loadGeonamesCatalogue(country: GeonamesCatalogueCountry, file: string): Promise<Catalogue> {
  const { rows, errors } = await loadGeonamesPostal(file);
  const cat = buildGeonamesCatalogue(country, rows);
  cat.errors.unshift(...errors.map((e) => `${file} line ${e.line}: ${e.message}`));
  return cat;
}
