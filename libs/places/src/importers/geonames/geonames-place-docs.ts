import { CountryCode } from '@lookup/contracts';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { round7 } from '../address-aggregates';
import { normName } from '../catalogue-coordinates';
import { Catalogue } from '../catalogue.types';
import { GeonamesPostalRow, loadGeonamesPostal } from './geonames.reader';
import { buildGeonamesCatalogue, postalCodeProblem, rowArea } from './geonames-catalogue';
import { isGeonamesCatalogueCountry } from './geonames-names';

/** As for the register imports: every kind of problem is seen without a broken file filling the memory. */
const MAX_REPORTED_ERRORS = 1000;

export interface GeonamesImportReport {
  country: CountryCode;
  /** Usable rows read. */
  rows: number;
  /** Documents yielded. */
  postalCodes: number;
  municipalities: number;
  /** Documents not yielded because `present` said the store already has them (a register's own, which win). */
  keptExisting: number;
  /** Rows that gave nothing (each one described in `errors`, up to a cap). */
  skipped: number;
  /** Postal codes placed in no municipality (written without context). */
  withoutMunicipality: number;
  errors: string[];
  seconds: number;
}

export interface GeonamesPlaceDocsOptions {
  country: CountryCode;
  /** A GeoNames postal-code dump (`PL.txt`). */
  file: string;
  /**
   * Where the postal codes lie. PL/AT/CH/LI: default the catalogue built from the same file
   * (loadGeonamesCatalogue). CZ/SK: the register's catalogue (loadCatalogue); without it their
   * postal codes carry no municipality, county or region.
   */
  catalogue?: Catalogue;
  skipPostalCodes?: boolean;
  /** PL/AT/CH/LI only (CZ/SK municipalities come from their registers); skip when the catalogue import already wrote them. */
  skipMunicipalities?: boolean;
  /**
   * Of these ids, the ones the store already holds. Those documents are not yielded: a register
   * import derives its own postal-code and municipality documents (same ids) from its address
   * points, and those win. Default: nothing is present.
   */
  present?: (placeIds: string[]) => Promise<ReadonlySet<string>>;
  batchSize?: number;
  onReport?: (r: GeonamesImportReport) => void;
}

interface Located {
  lat: number;
  lng: number;
}

/**
 * Postal-code documents (one per code: mean position of its rows, weight 1, the region,
 * county and municipality of most of its rows) and, for PL/AT/CH/LI, the catalogue's
 * municipality documents, for places the registers gave no address points. Batches of
 * `batchSize`, postal codes first, each sorted by place_id; rows that cannot be used are counted
 * and described in the report.
 */
export async function* geonamesPlaceDocs(opts: GeonamesPlaceDocsOptions): AsyncGenerator<PlaceDoc[]> {
  const started = process.hrtime.bigint();
  const { country } = opts;
  const batchSize = opts.batchSize ?? 1000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const report: GeonamesImportReport = { country, rows: 0, postalCodes: 0, municipalities: 0, keptExisting: 0, skipped: 0, withoutMunicipality: 0, errors: [], seconds: 0 };
  const error = (m: string) => {
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(m);
  };
  const loaded = await loadGeonamesPostal(opts.file);
  for (const e of loaded.errors) {
    report.skipped++;
    error(`${opts.file} line ${e.line}: ${e.message}`);
  }
  const rows = loaded.rows.filter((r) => {
    const problem = postalCodeProblem(country, r);
    if (problem) {
      report.skipped++;
      error(`${opts.file} line ${r.line}: ${problem}`);
    }
    return !problem;
  });
  report.rows = rows.length;
  let catalogue = opts.catalogue;
  if (!catalogue && isGeonamesCatalogueCountry(country)) {
    catalogue = buildGeonamesCatalogue(country, rows);
    // Rows it could not place still give their postal code (without context where no other row places it).
    for (const e of catalogue.errors) error(`${opts.file} ${e}`);
  }
  const placeRow = rowPlacer(country, catalogue);

  const docs: PlaceDoc[] = [];
  if (!opts.skipPostalCodes) {
    for (const doc of postalDocs(country, rows, placeRow)) {
      if (!doc.municipality_id) report.withoutMunicipality++;
      docs.push(doc);
    }
  }
  if (!opts.skipMunicipalities && isGeonamesCatalogueCountry(country) && catalogue) {
    for (const m of catalogue.municipalities) docs.push({ ...m, municipality_id: m.place_id, municipality: m.name });
  }
  for (let i = 0; i < docs.length; i += batchSize) {
    const batch = docs.slice(i, i + batchSize);
    const present = opts.present ? await opts.present(batch.map((d) => d.place_id)) : new Set<string>();
    const fresh = batch.filter((d) => !present.has(d.place_id));
    report.keptExisting += batch.length - fresh.length;
    for (const d of fresh) {
      if (d.object === 'postal_code') report.postalCodes++;
      else report.municipalities++;
    }
    if (fresh.length) yield fresh;
  }
  report.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  opts.onReport?.(report);
}

/** A row's municipality doc and, where GeoNames names one, its part (Vienna's Gemeindebezirke). */
type Placer = (r: GeonamesPostalRow) => { municipality: PlaceDoc | null; district: string | null };

function rowPlacer(country: CountryCode, catalogue: Catalogue | undefined): Placer {
  const byId = new Map((catalogue?.municipalities ?? []).map((m) => [m.place_id, m]));
  if (isGeonamesCatalogueCountry(country)) {
    return (r) => {
      const area = rowArea(country, r);
      if (typeof area === 'string') return { municipality: null, district: null };
      return { municipality: byId.get(placeId(country, 'municipality', area.municipality.code)) ?? null, district: area.district };
    };
  }
  if (!catalogue) return () => ({ municipality: null, district: null });
  const candidates = country === 'CZ' ? czCandidates(catalogue) : skCandidates(catalogue);
  const parts = partNames(catalogue);
  // A row the catalogue gives no candidates for (a post-office code `Žilina 2` without okres, a
  // PSC the list does not have) goes to the municipality of its name, else the nearest one.
  return (r) => ({ municipality: pick(candidates(r), r, false, parts) ?? pick(catalogue.municipalities, r, true), district: null });
}

/** Per municipality doc, its parts' names as normName gives them (CZ: the PSC list's `nazcobce`). */
function partNames(cat: Catalogue): (m: PlaceDoc) => ReadonlySet<string> {
  const byId = new Map([...cat.parts].map(([id, names]) => [id, new Set([...names].map(normName))]));
  const none = new Set<string>();
  return (m) => byId.get(m.place_id) ?? none;
}

/** CZ: the municipalities the PSC list gives this postal code. */
function czCandidates(cat: Catalogue): (r: GeonamesPostalRow) => PlaceDoc[] {
  const byCode = new Map<string, PlaceDoc[]>();
  const byId = new Map(cat.municipalities.map((m) => [m.place_id, m]));
  for (const [id, codes] of cat.postalCodes) {
    const m = byId.get(id);
    if (!m) continue;
    for (const c of codes) byCode.set(c, [...(byCode.get(c) ?? []), m]);
  }
  return (r) => byCode.get(r.postalCode) ?? [];
}

/** SK: the municipalities of the row's okres (GeoNames `Okres Banská Bystrica`, the register `Banská Bystrica`). */
function skCandidates(cat: Catalogue): (r: GeonamesPostalRow) => PlaceDoc[] {
  const key = (s: string) => normName(s).replace(/^okres /, '');
  const byCounty = new Map<string, PlaceDoc[]>();
  for (const m of cat.municipalities) if (m.county) byCounty.set(key(m.county), [...(byCounty.get(key(m.county)) ?? []), m]);
  return (r) => byCounty.get(key(r.admin2Name)) ?? [];
}

/**
 * The candidate with the row's place name (`withoutNumber`: `Žilina 2` = Žilina), else the one with
 * a part so named (GeoNames' CZ rows name parts: 537 01's `Chrudim III`, `Vestec` and `Topol` are
 * Chrudim's, which the nearest candidate, Sobětuchy, had taken from it), else the nearest located
 * one, else none.
 */
function pick(candidates: PlaceDoc[], r: GeonamesPostalRow, withoutNumber = false, parts?: (m: PlaceDoc) => ReadonlySet<string>): PlaceDoc | null {
  const name = withoutNumber ? normName(r.place).replace(/ \d+$/, '') : normName(r.place);
  const named = candidates.find((m) => normalName(m) === name) ?? (parts && candidates.find((m) => parts(m).has(name)));
  if (named) return named;
  // A city whose boroughs are its municipalities (`Košice 2`: Košice-Juh, Košice-Kavečany, ...): its largest borough, not
  // the one nearest the row, which GeoNames places at the city's generic position (Kavečany's, on its edge).
  if (withoutNumber) {
    const boroughs = candidates.filter((m) => normalName(m).startsWith(`${name}-`));
    if (boroughs.length) return boroughs.reduce((a, b) => (heavier(b, a) ? b : a));
  }
  let best: PlaceDoc | null = null;
  let bestD = Infinity;
  for (const m of candidates) {
    if (m.lat === null || m.lng === null) continue;
    const d = (m.lat - r.lat) ** 2 + ((m.lng - r.lng) * Math.cos((r.lat * Math.PI) / 180)) ** 2;
    if (d < bestD || (d === bestD && best && m.place_id < best.place_id)) [best, bestD] = [m, d];
  }
  return best;
}

const normalNames = new WeakMap<PlaceDoc, string>();

/** normName of a municipality's name, once per doc (the fallback compares a row with every municipality). */
function normalName(m: PlaceDoc): string {
  let n = normalNames.get(m);
  if (n === undefined) normalNames.set(m, (n = normName(m.name)));
  return n;
}

function* postalDocs(country: CountryCode, rows: GeonamesPostalRow[], placeRow: Placer): Generator<PlaceDoc> {
  const byCode = new Map<string, GeonamesPostalRow[]>();
  for (const r of rows) byCode.set(r.postalCode, [...(byCode.get(r.postalCode) ?? []), r]);
  for (const code of [...byCode.keys()].sort()) {
    const group = byCode.get(code)!;
    const doc = emptyDoc(country, 'postal_code', placeId(country, 'postal_code', code), code);
    doc.postal_code = code;
    const at = mean(group);
    doc.lat = at.lat;
    doc.lng = at.lng;
    // One for every code: its rows count the villages it serves, not its use (Żukowo's 80-297 has 7 rows, Gdańsk's 80-008 one;
    // Zürich's PO-box codes two, 8001 one), so the codes of a start are listed in their order (8001, 8002, ...).
    doc.weight = 1;
    const placed = group.map(placeRow);
    const m = majority(
      placed.map((p) => p.municipality).filter((x): x is PlaceDoc => x !== null),
      new Set(group.map((r) => normName(r.place).replace(/ \d+$/, ''))),
    );
    if (m) {
      doc.region_id = m.region_id;
      doc.region = m.region;
      doc.county_id = m.county_id;
      doc.county = m.county;
      doc.municipality_id = m.place_id;
      doc.municipality = m.name;
      const districts = new Set(placed.filter((p) => p.municipality === m).map((p) => p.district));
      doc.district = districts.size === 1 ? [...districts][0]! : null;
    }
    yield doc;
  }
}

/** Whether `a` weighs more than `b` (the catalogue's estimate, see estimateTownWeights), else has the lower place_id. */
function heavier(a: PlaceDoc, b: PlaceDoc): boolean {
  return a.weight > b.weight || (a.weight === b.weight && a.place_id < b.place_id);
}

/** The city of a borough that is a municipality (`kosice` of Košice-Juh), else null. */
function cityOf(m: PlaceDoc): string | null {
  const at = normalName(m).indexOf('-');
  return at > 0 ? normalName(m).slice(0, at) : null;
}

/**
 * The district town when a row names it (787 01: Šumperk, not Bratrušov, whose two rows outnumber
 * Šumperk's one: the code is Šumperk's post office), else the municipality most rows lie in; ties
 * go to the lowest place_id, or between boroughs of one city to the heavier (040 01's five Košice
 * boroughs: Juh, not Kavečany on the city's edge). Measured on the whole CZ register (`rowNames`:
 * the rows' place names): the codes whose catalogue town is the register's own majority town rose
 * from 2 157 to 2 172 of 2 533 (16 codes right, among them 370 06, 370 07 and 370 10 České
 * Budějovice, 787 01; one wrong, 671 81, where the register's majority is the village). Not by
 * weight between any two: that agreement fell from 2 318 to 2 309 of 2 694.
 */
function majority(ms: PlaceDoc[], rowNames: ReadonlySet<string>): PlaceDoc | null {
  const seat = ms.find((m) => m.county !== null && rowNames.has(normalName(m)) && normName(m.county).replace(/^okres /, '') === normalName(m));
  if (seat) return seat;
  const n = new Map<PlaceDoc, number>();
  for (const m of ms) n.set(m, (n.get(m) ?? 0) + 1);
  let best: PlaceDoc | null = null;
  for (const [m, c] of n) {
    const bc = best ? n.get(best)! : -1;
    const boroughs = best !== null && cityOf(m) !== null && cityOf(m) === cityOf(best);
    if (c > bc || (c === bc && best && (boroughs ? heavier(m, best) : m.place_id < best.place_id))) best = m;
  }
  return best;
}

function mean(rows: Located[]): Located {
  const sum = rows.reduce((s, p) => ({ lat: s.lat + p.lat, lng: s.lng + p.lng }), { lat: 0, lng: 0 });
  return { lat: round7(sum.lat / rows.length), lng: round7(sum.lng / rows.length) };
}
