import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { PL_VOIVODESHIPS, plCountyName } from '../geonames/geonames-names';
import { axisOrderOf, AxisOrder, parseCs92Pos } from './cs92';
import { PrgDictionary, PrgLocality, PrgStreet, PrgUnit } from './prg-dictionary';
import { firstText, linkTarget, PrgFeature } from './prg-gml.reader';

/** Why a point did not become an address (the import counts it in `skipped`). */
export class PrgSkip {
  constructor(readonly reason: string) {}
}

/** The TERYT area of a point: codes and the names the file itself gives (2012) or none (2021). */
interface Area {
  /** 7-digit TERYT gmina code (with the type digit). */
  gmina: string;
  names: { region: string | null; county: string | null; municipality: string | null };
  locality: PrgLocality | null;
  localityName: string | null;
  street: { name: string; ulic: string | null } | null;
}

/** Where voivodeship, powiat and gmina names come from, before the file's own. */
export interface AreaNames {
  /** The catalogue's doc with this place_id (the GeoNames catalogue). */
  catalogue: (placeId: string) => PlaceDoc | undefined;
  /** Whether a catalogue was given at all (a unit it lacks is then reported). */
  catalogueGiven: boolean;
  /** Names from a TERYT TERC table, by place_id. */
  terc: ReadonlyMap<string, string>;
}

const POSTAL = /^(\d{2})-?(\d{3})$/;

/**
 * PRG address points (either schema) -> address docs in the PL place model: the whole house
 * number in `building_number`, the locality as `district` (and after the postal code) where it is
 * not the gmina's own name, ids from TERYT (the gmina without its type digit, so the town and
 * rural parts of an urban-rural gmina are one gmina). Names come from the catalogue, else a TERC
 * table, else the file (2012 only); each unit without a name is reported once.
 */
export class PrgAddressBuilder {
  private readonly reported = new Set<string>();

  constructor(
    private readonly dict: PrgDictionary,
    private readonly names: AreaNames,
    private readonly onError: (message: string) => void,
  ) {}

  build(f: PrgFeature, where: string): PlaceDoc | PrgSkip {
    const localId = firstText(f, 'lokalnyId');
    if (!localId) return new PrgSkip('no lokalnyId');
    const number = firstText(f, 'numerPorzadkowy');
    if (!number) return new PrgSkip(`address ${localId}: no numerPorzadkowy`);
    const area = f.type === 'PRG_PunktAdresowy' ? this.area2012(f) : this.area2021(f);
    if (typeof area === 'string') return new PrgSkip(`address ${localId}: ${area}`);

    const d = emptyDoc('PL', 'address', placeId('PL', 'address', localId), '');
    this.fillArea(d, area);
    const locality = area.localityName;
    d.street = area.street?.name || null;
    d.district = locality && (!d.street || locality !== d.municipality) ? locality : null;
    d.postal_place = locality && locality !== d.municipality ? locality : null;
    d.street_id = d.street ? streetId(area, d.street) : null;
    d.building_number = number;
    d.postal_code = this.postalCode(firstText(f, 'kodPocztowy'), localId, where);
    this.position(d, f, localId, where);
    d.name = formatAddress(d).formatted_address;
    return d;
  }

  /** 2012: TERYT codes through the `komponent` links, names as the point writes them. */
  private area2012(f: PrgFeature): Area | string {
    const units: PrgUnit[] = [];
    let locality: PrgLocality | null = null;
    let street: PrgStreet | null = null;
    for (const href of f.href.get('komponent') ?? []) {
      const id = linkTarget(href);
      const unit = this.dict.units.get(id);
      if (unit) units.push(unit);
      locality = this.dict.localities.get(id) ?? locality;
      street = this.dict.streets.get(id) ?? street;
    }
    const gmina = units.find((u) => u.level === 4)?.teryt;
    const written = f.text.get('jednostkaAdmnistracyjna') ?? f.text.get('jednostkaAdministracyjna') ?? [];
    if (!gmina || !/^\d{7}$/.test(gmina)) return `unknown gmina: no TERYT gmina code among its komponent links (gmina "${written[3] ?? ''}")`;
    const unitName = (level: number) => units.find((u) => u.level === level)?.name || null;
    const streetName = firstText(f, 'ulica');
    return {
      gmina,
      names: {
        region: unitName(2) ?? written[1] ?? null,
        county: unitName(3) ?? (written[2] ? `powiat ${written[2]}` : null),
        municipality: unitName(4) ?? written[3] ?? null,
      },
      locality,
      localityName: firstText(f, 'miejscowosc') ?? locality?.name ?? null,
      street: streetName ? { name: streetName, ulic: street?.ulic ?? null } : null,
    };
  }

  /** 2021: the point links its locality (which carries the gmina code) and its street. */
  private area2021(f: PrgFeature): Area | string {
    const ref = f.href.get('miejscowosc')?.[0];
    if (!ref) return 'unknown gmina: no miejscowosc link';
    const locality = this.dict.localities.get(linkTarget(ref));
    if (!locality) return `unknown gmina: its miejscowosc ${linkTarget(ref)} is not in the file`;
    if (!locality.gmina || !/^\d{7}$/.test(locality.gmina)) return `unknown gmina: locality ${locality.name} has no 7-digit TERYTGminy`;
    const streetRef = f.href.get('ulica2')?.[0] ?? f.href.get('ulica')?.[0];
    const street = streetRef ? this.dict.streets.get(linkTarget(streetRef)) : undefined;
    if (streetRef && !street) this.once(`street ${linkTarget(streetRef)}`, `street ${linkTarget(streetRef)} is linked but not in the file: its addresses are kept without a street`);
    return { gmina: locality.gmina, names: { region: null, county: null, municipality: null }, locality, localityName: locality.name, street: street ?? null };
  }

  /** Region, county and municipality ids from the gmina code; names from the catalogue, TERC, the file, in that order. */
  private fillArea(d: PlaceDoc, a: Area): void {
    const [woj, pow, gmi] = [a.gmina.slice(0, 2), a.gmina.slice(0, 4), a.gmina.slice(0, 6)];
    d.region_id = placeId('PL', 'region', woj);
    d.county_id = placeId('PL', 'county', pow);
    d.municipality_id = placeId('PL', 'municipality', gmi);
    d.region = this.name(d.region_id) ?? PL_VOIVODESHIPS[woj] ?? a.names.region;
    d.county = this.name(d.county_id) ?? (a.names.county ? countyName(pow, a.names.county) : null);
    d.municipality = this.name(d.municipality_id) ?? a.names.municipality;
    if (!d.county) {
      // No name anywhere (2021 file, no catalogue or TERC): better no county than a nameless one.
      this.once(d.county_id, `powiat ${pow} has no name in the file, the catalogue or TERC: its addresses have no county`);
      [d.county_id, d.county] = [null, null];
    }
    if (!d.municipality) {
      d.municipality = a.localityName;
      this.once(d.municipality_id, `gmina ${gmi} has no name in the file, the catalogue or TERC: named after its locality "${a.localityName ?? ''}"`);
    }
  }

  private name(id: string): string | undefined {
    const doc = this.names.catalogue(id);
    if (doc) return doc.name;
    if (this.names.catalogueGiven) this.once(`catalogue ${id}`, `${id} is not in the catalogue: named from TERC or the file`);
    return this.names.terc.get(id);
  }

  private postalCode(raw: string | null, localId: string, where: string): string | null {
    if (!raw) return null;
    const m = POSTAL.exec(raw.trim());
    if (m) return m[1]! + m[2]!;
    this.onError(`${where}: address ${localId}: kodPocztowy "${raw}" is not NN-NNN: kept without a postal code`);
    return null;
  }

  private position(d: PlaceDoc, f: PrgFeature, localId: string, where: string): void {
    if (!f.pos) {
      this.onError(`${where}: address ${localId}: no position: kept without one`);
      return;
    }
    const fallback: AxisOrder = f.type === 'PRG_PunktAdresowy' ? 'northing-easting' : 'easting-northing';
    const p = parseCs92Pos(f.pos, axisOrderOf(f.srsName, fallback));
    if (typeof p === 'string') this.onError(`${where}: address ${localId}: ${p}: kept without a position`);
    else [d.lat, d.lng] = [p.lat, p.lng];
  }

  private once(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.onError(message);
  }
}

/** A city with powiat rights (codes x61 and up) is named as the city; others `powiat xyz`. */
function countyName(code: string, name: string): string {
  const bare = name.trim().replace(/^powiat\s+/i, '');
  return Number(code.slice(2)) >= 61 ? bare : plCountyName(code, `powiat ${bare}`);
}

/** TERYT SIMC+ULIC when both are known; else the gmina, locality and name (stable across refreshes too). */
function streetId(a: Area, street: string): string {
  if (a.locality?.simc && a.street?.ulic) return placeId('PL', 'street', `${a.locality.simc}-${a.street.ulic}`);
  return placeId('PL', 'street', `${a.gmina.slice(0, 6)}-${fold(a.localityName ?? '')}-${fold(street)}`);
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[łŁ]/g, 'l');
}
