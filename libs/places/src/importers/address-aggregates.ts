import { CountryCode } from '@lookup/contracts';
import { emptyDoc, PlaceDoc, placeId } from '../domain/place.doc';

/** Running mean of positions and a count; the count includes addresses without a position. */
interface Centroid {
  n: number;
  located: number;
  lat: number;
  lng: number;
}

interface StreetAgg extends Centroid {
  doc: PlaceDoc;
  districts: Set<string>;
  postalCodes: Map<string, number>;
}

interface PostalAgg extends Centroid {
  municipalities: Map<string, { n: number; doc: PlaceDoc }>;
}

interface MunicipalityAgg extends Centroid {
  doc: PlaceDoc;
}

function add(c: Centroid, d: PlaceDoc): void {
  c.n++;
  if (d.lat === null || d.lng === null) return;
  c.located++;
  c.lat += (d.lat - c.lat) / c.located;
  c.lng += (d.lng - c.lng) / c.located;
}

/**
 * Weight and centroid onto the doc. With no located address there is no centroid: the doc keeps
 * the position it started with, the catalogue's (GeoNames) for a municipality, county or region
 * the catalogue knows, else none; a street or postal code starts without one.
 */
function place(doc: PlaceDoc, c: Centroid): PlaceDoc {
  doc.weight = c.n;
  if (c.located) {
    doc.lat = round7(c.lat);
    doc.lng = round7(c.lng);
  }
  return doc;
}

/**
 * Strings cut from a big decoded chunk (split, slice) keep the whole chunk alive in V8. Whatever
 * the aggregates keep for the whole run is copied once and shared, or a full register import
 * would hold most of its text in memory.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();

  get<T extends string | null>(s: T): T {
    if (s === null) return s;
    let own = this.pool.get(s);
    if (own === undefined) {
      own = Buffer.from(s, 'utf8').toString('utf8');
      this.pool.set(own, own);
    }
    return own as T;
  }
}

export function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

function majority<T>(m: Map<string, T>, count: (v: T) => number): string | null {
  let best: string | null = null;
  let bestN = -1;
  for (const [k, v] of m) {
    const n = count(v);
    if (n > bestN || (n === bestN && best !== null && k < best)) [best, bestN] = [k, n];
  }
  return best;
}

/**
 * Streets, postal codes, municipalities, counties and regions derived from the address docs as
 * they stream past: memory grows with the number of those objects (tens of thousands), not with
 * the addresses. Municipality, county and region docs start from the catalogue's (same ids and
 * names) when it knows them, and get the centroid and address count of their addresses (the
 * catalogue's position stays where none of their addresses has one).
 */
export class AddressAggregates {
  private readonly streets = new Map<string, StreetAgg>();
  private readonly postal = new Map<string, PostalAgg>();
  private readonly municipalities = new Map<string, MunicipalityAgg>();
  /** Counties and regions, keyed by place_id. */
  private readonly areas = new Map<string, MunicipalityAgg>();
  private readonly str = new StringPool();

  constructor(
    private readonly country: CountryCode,
    /** The catalogue's municipality, county or region doc with this place_id. */
    private readonly catalogue: (id: string) => PlaceDoc | undefined = () => undefined,
  ) {}

  add(d: PlaceDoc): void {
    if (d.street_id && d.street) this.addStreet(d);
    if (d.postal_code) this.addPostal(d);
    if (d.municipality_id) this.addMunicipality(d);
    if (d.county_id) this.addArea(d, 'county', d.county_id, d.county);
    if (d.region_id) this.addArea(d, 'region', d.region_id, d.region);
  }

  /** Whether the addresses gave a street, postal code, municipality, county or region of this id. */
  derives(placeId: string): boolean {
    return this.streets.has(placeId) || this.municipalities.has(placeId) || this.areas.has(placeId);
  }

  /** Counties and regions derived (not part of the import report's counts). */
  get areaCount(): number {
    return this.areas.size;
  }

  get counts(): { streets: number; postalCodes: number; municipalities: number } {
    return { streets: this.streets.size, postalCodes: this.postal.size, municipalities: this.municipalities.size };
  }

  /** Streets, then postal codes, municipalities, and counties + regions, each sorted by place_id. */
  *docs(): Generator<PlaceDoc> {
    for (const s of sortedValues(this.streets)) {
      s.doc.district = s.districts.size === 1 ? [...s.districts][0]! : null;
      s.doc.postal_code = majority(s.postalCodes, (n) => n);
      yield place(s.doc, s);
    }
    for (const [code, p] of sortedEntries(this.postal)) {
      const doc = emptyDoc(this.country, 'postal_code', placeId(this.country, 'postal_code', code), code);
      doc.postal_code = code;
      const m = majority(p.municipalities, (v) => v.n);
      if (m) this.copyArea(doc, p.municipalities.get(m)!.doc);
      yield place(doc, p);
    }
    for (const m of sortedValues(this.municipalities)) yield place(m.doc, m);
    for (const a of sortedValues(this.areas)) yield place(a.doc, a);
  }

  /** Region, county and municipality of `from` onto `to`, as strings of our own. */
  private copyArea(to: PlaceDoc, from: PlaceDoc): void {
    to.region_id = this.str.get(from.region_id);
    to.region = this.str.get(from.region);
    to.county_id = this.str.get(from.county_id);
    to.county = this.str.get(from.county);
    to.municipality_id = this.str.get(from.municipality_id);
    to.municipality = this.str.get(from.municipality);
  }

  private addStreet(d: PlaceDoc): void {
    let s = this.streets.get(d.street_id!);
    if (!s) {
      const id = this.str.get(d.street_id!);
      const doc = emptyDoc(this.country, 'street', id, this.str.get(d.street!));
      this.copyArea(doc, d);
      doc.street = doc.name;
      doc.street_id = id;
      doc.city_district = this.str.get(d.city_district);
      doc.postal_place = this.str.get(d.postal_place);
      s = { doc, n: 0, located: 0, lat: 0, lng: 0, districts: new Set(), postalCodes: new Map() };
      this.streets.set(id, s);
    }
    add(s, d);
    if (d.district && !s.districts.has(d.district)) s.districts.add(this.str.get(d.district));
    if (d.postal_code) {
      const n = s.postalCodes.get(d.postal_code);
      s.postalCodes.set(n === undefined ? this.str.get(d.postal_code) : d.postal_code, (n ?? 0) + 1);
    }
  }

  private addPostal(d: PlaceDoc): void {
    let p = this.postal.get(d.postal_code!);
    if (!p) {
      p = { n: 0, located: 0, lat: 0, lng: 0, municipalities: new Map() };
      this.postal.set(this.str.get(d.postal_code!), p);
    }
    add(p, d);
    const key = d.municipality_id ?? '';
    const m = p.municipalities.get(key);
    if (m) m.n++;
    else {
      const area = emptyDoc(this.country, 'postal_code', '', '');
      this.copyArea(area, d);
      p.municipalities.set(this.str.get(key), { n: 1, doc: area });
    }
  }

  private addMunicipality(d: PlaceDoc): void {
    let m = this.municipalities.get(d.municipality_id!);
    if (!m) {
      const known = this.catalogue(d.municipality_id!);
      const id = this.str.get(d.municipality_id!);
      const doc = known ? { ...known } : emptyDoc(this.country, 'municipality', id, this.str.get(d.municipality ?? ''));
      if (!known) this.copyArea(doc, d);
      // Its own id too, so a `context` filter on the municipality also keeps the municipality itself.
      doc.municipality_id = id;
      doc.municipality = doc.name;
      m = { doc, n: 0, located: 0, lat: 0, lng: 0 };
      this.municipalities.set(id, m);
    }
    add(m, d);
  }

  private addArea(d: PlaceDoc, kind: 'county' | 'region', id: string, name: string | null): void {
    let a = this.areas.get(id);
    if (!a) {
      const known = this.catalogue(id);
      const own = this.str.get(id);
      const doc = known ? { ...known } : emptyDoc(this.country, kind, own, this.str.get(name ?? ''));
      if (!known && kind === 'county') [doc.region_id, doc.region] = [this.str.get(d.region_id), this.str.get(d.region)];
      a = { doc, n: 0, located: 0, lat: 0, lng: 0 };
      this.areas.set(own, a);
    }
    add(a, d);
  }
}


function sortedEntries<T>(m: Map<string, T>): [string, T][] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sortedValues<T>(m: Map<string, T>): T[] {
  return sortedEntries(m).map(([, v]) => v);
}
