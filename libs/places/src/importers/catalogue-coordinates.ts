import { PlaceDoc } from '../domain/place.doc';
import { Catalogue } from './catalogue.types';
import type { GeonamesPostalRow } from './geonames/geonames.reader';

/** How each municipality got its position, to see the coverage at a glance. */
export interface CoordinateReport {
  /** CZ: a GeoNames row with one of its PSCs and its name. */
  byPostalCodeAndName: number;
  /** CZ: mean of the GeoNames rows with its PSCs (the name is not among them). */
  byPostalCode: number;
  /** SK: GeoNames rows with its name in its okres. */
  byNameAndCounty: number;
  /** SK: GeoNames rows with its name, all in one okres that is not its own by name, and no other municipality of that name. */
  byNameOnly: number;
  /** Left with lat/lng null. */
  without: number;
}

/** Lowercase, without diacritics, single spaces, no spaces around hyphens: `Čerín - Čačín` = `cerin-cacin`. */
export function normName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s*-\s*/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** GeoNames writes most Slovak admin2 as `Okres Banská Bystrica`, Košice's as `Košice I`. */
function countyKey(admin2: string): string {
  return normName(admin2).replace(/^okres /, '');
}

/**
 * Sets lat/lng on the catalogue's municipalities from GeoNames postal rows of the same
 * country (the registers' catalogues carry none), then on counties and regions as the mean
 * of their municipalities. Municipalities nothing matches keep null: positions are never guessed.
 */
export function assignCoordinates(cat: Catalogue, geonames: Iterable<GeonamesPostalRow>): CoordinateReport {
  const rows = [...geonames].filter((r) => r.country === cat.country);
  const report: CoordinateReport = { byPostalCodeAndName: 0, byPostalCode: 0, byNameAndCounty: 0, byNameOnly: 0, without: 0 };
  const locate = cat.country === 'CZ' ? byPostalCode(cat, rows, report) : byNameAndCounty(cat, rows, report);
  for (const m of cat.municipalities) {
    const at = locate(m);
    m.lat = at?.lat ?? null;
    m.lng = at?.lng ?? null;
    if (!at) report.without++;
  }
  rollUp(cat.counties, cat.municipalities, (m) => m.county_id);
  rollUp(cat.regions, cat.municipalities, (m) => m.region_id);
  return report;
}

type Locate = (m: PlaceDoc) => LatLng | null;
interface LatLng {
  lat: number;
  lng: number;
}

function byPostalCode(cat: Catalogue, rows: GeonamesPostalRow[], report: CoordinateReport): Locate {
  const byCode = groupBy(rows, (r) => r.postalCode);
  return (m) => {
    const candidates = [...(cat.postalCodes.get(m.place_id) ?? [])].flatMap((psc) => byCode.get(psc) ?? []);
    if (!candidates.length) return null;
    const name = normName(m.name);
    const named = candidates.filter((r) => normName(r.place) === name);
    if (named.length) report.byPostalCodeAndName++;
    else report.byPostalCode++;
    return mean(named.length ? named : candidates);
  };
}

function byNameAndCounty(cat: Catalogue, rows: GeonamesPostalRow[], report: CoordinateReport): Locate {
  const byName = groupBy(rows, (r) => normName(r.place));
  const homonyms = groupBy(cat.municipalities, (m) => normName(m.name));
  return (m) => {
    const named = byName.get(normName(m.name)) ?? [];
    const county = m.county ? countyKey(m.county) : null;
    const inCounty = named.filter((r) => countyKey(r.admin2Name) === county);
    if (inCounty.length) {
      report.byNameAndCounty++;
      return placed(m, inCounty);
    }
    // A name filed under one okres only is one place, however many postal codes it has; but when
    // the catalogue has the name twice (Hradište in Partizánske and in Poltár) and GeoNames only
    // one of them, that row belongs to the other municipality.
    const unique = homonyms.get(normName(m.name))!.length === 1 && new Set(named.map((r) => countyKey(r.admin2Name))).size === 1;
    if (named.length && unique) {
      report.byNameOnly++;
      return placed(m, named);
    }
    return null;
  };

  /** The rows' mean position; their postal codes become the municipality's (its weight until addresses are counted, see estimateTownWeights). */
  function placed(m: PlaceDoc, found: GeonamesPostalRow[]): LatLng | null {
    cat.postalCodes.set(m.place_id, new Set(found.map((r) => r.postalCode)));
    return mean(found);
  }
}

function rollUp(parents: PlaceDoc[], children: PlaceDoc[], parentOf: (c: PlaceDoc) => string | null): void {
  const groups = groupBy(
    children.filter((c) => c.lat !== null && c.lng !== null),
    (c) => parentOf(c) ?? '',
  );
  for (const p of parents) {
    const at = mean((groups.get(p.place_id) ?? []).map((c) => ({ lat: c.lat!, lng: c.lng! })));
    p.lat = at?.lat ?? null;
    p.lng = at?.lng ?? null;
  }
}

function mean(points: LatLng[]): LatLng | null {
  if (!points.length) return null;
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const sum = points.reduce((s, p) => ({ lat: s.lat + p.lat, lng: s.lng + p.lng }), { lat: 0, lng: 0 });
  return { lat: round(sum.lat / points.length), lng: round(sum.lng / points.length) };
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list) list.push(it);
    else out.set(k, [it]);
  }
  return out;
}
