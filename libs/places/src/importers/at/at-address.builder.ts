import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import type { LatLng } from '../../geo/sjtsk';
import { round7 } from '../address-aggregates';
import { rowPosition } from './at-gauss-krueger';

/** The nine Bundeslaender by the first digit of the GKZ: the region names when no catalogue is given. */
export const AT_BUNDESLAENDER: Record<string, string> = {
  '1': 'Burgenland',
  '2': 'Kärnten',
  '3': 'Niederösterreich',
  '4': 'Oberösterreich',
  '5': 'Salzburg',
  '6': 'Steiermark',
  '7': 'Tirol',
  '8': 'Vorarlberg',
  '9': 'Wien',
};

/**
 * The house number as written after the street: `12`, `12a`, a range `1-3`. A second part
 * without a connector is joined with `/`, the way Austrian addresses write a second number.
 */
export function addressNumber(zahl1: string, buchstabe1: string, verbindung1: string, zahl2: string, buchstabe2: string): string | null {
  const first = `${zahl1.trim()}${buchstabe1.trim()}`;
  const second = `${zahl2.trim()}${buchstabe2.trim()}`;
  if (!second) return first || null;
  return `${first}${verbindung1.trim() || '/'}${second}`;
}

/**
 * A building's sub-number (GEBAEUDE: HAUSNRVERBINDUNG2 + ZAHL3 + BUCHSTABE3 + VERBINDUNG3 +
 * ZAHL4 + BUCHSTABE4) appended to the address's: `12` + `/3` = `12/3`, `12/3/5`. The register
 * stops at buildings and staircases (Stiege); door (Tuer) numbers are not in it. '' when none.
 */
export function subNumber(verbindung2: string, zahl3: string, buchstabe3: string, verbindung3: string, zahl4: string, buchstabe4: string): string {
  const third = `${zahl3.trim()}${buchstabe3.trim()}`;
  const fourth = `${zahl4.trim()}${buchstabe4.trim()}`;
  if (!third && !fourth) return '';
  return `${verbindung2.trim() || '/'}${third}${fourth ? `${verbindung3.trim() || '/'}${fourth}` : ''}`;
}

export interface AtStreet {
  name: string;
  /** ZUSTELLORT: the post town written after the PLZ. */
  postTown: string;
}

/** What one ADRESSE row says, its columns already picked. */
export interface AtAddressRow {
  adrcd: string;
  gkz: string;
  okz: string;
  plz: string;
  skz: string;
  number: string | null;
  epsg: string;
  rw: string;
  hw: string;
}

export interface AtSubAddress {
  subcd: string;
  /** `/3`, `/3/5`. */
  number: string;
  epsg: string;
  rw: string;
  hw: string;
}

/** The small tables and the catalogue, as lookups. */
export interface AtLookups {
  street(skz: string): AtStreet | undefined;
  municipalityName(gkz: string): string | undefined;
  locality(okz: string): string | undefined;
  catalogue(placeId: string): PlaceDoc | undefined;
}

/**
 * ADRESSE rows (and their GEBAEUDE sub-addresses) -> address docs in the model of model.md:
 * Bundesland = region, Bezirk (first 3 GKZ digits) = county, Gemeinde = municipality,
 * Ortschaft = district; a street named like its Ortschaft (the register's stand-in where a
 * village has no streets) becomes street null, so the address reads `Ortschaft 12`.
 */
export class AtAddressBuilder {
  private readonly reported = new Set<string>();

  constructor(
    private readonly lookups: AtLookups,
    private readonly onError: (message: string) => void,
  ) {}

  /** The address doc, or why the row cannot be one (then it is skipped). */
  build(r: AtAddressRow, where: string): PlaceDoc | string {
    if (!/^\d+$/.test(r.adrcd)) return `ADRCD "${r.adrcd}" is not a number`;
    if (!/^[1-9]\d{4}$/.test(r.gkz)) return `ADRCD ${r.adrcd}: GKZ "${r.gkz}" is not a 5-digit Gemeindekennziffer`;
    const street = this.lookups.street(r.skz);
    if (!street) return `ADRCD ${r.adrcd}: SKZ "${r.skz}" is not in STRASSE`;
    const municipalityId = placeId('AT', 'municipality', r.gkz);
    const municipality = this.lookups.catalogue(municipalityId)?.name ?? this.lookups.municipalityName(r.gkz);
    if (!municipality) return `ADRCD ${r.adrcd}: GKZ ${r.gkz} is neither in GEMEINDE nor in the catalogue`;

    const d = emptyDoc('AT', 'address', placeId('AT', 'address', r.adrcd), '');
    d.region_id = placeId('AT', 'region', r.gkz[0]!);
    d.region = this.lookups.catalogue(d.region_id)?.name ?? AT_BUNDESLAENDER[r.gkz[0]!]!;
    const countyId = placeId('AT', 'county', r.gkz.slice(0, 3));
    const county = this.lookups.catalogue(countyId);
    if (county) [d.county_id, d.county] = [countyId, county.name];
    else this.once(`county ${countyId}`, `Bezirk ${r.gkz.slice(0, 3)} is not in the catalogue: its addresses have no county`);
    d.municipality_id = municipalityId;
    d.municipality = municipality;
    const locality = this.lookups.locality(r.okz);
    if (locality === undefined) this.once(`okz ${r.okz}`, `${where}: OKZ "${r.okz}" is not in ORTSCHAFT: its addresses have no Ortschaft`);
    d.district = locality ?? null;
    if (street.name !== locality) {
      d.street = street.name;
      d.street_id = placeId('AT', 'street', r.skz);
    }
    d.building_number = r.number;
    if (/^\d{4}$/.test(r.plz)) d.postal_code = r.plz;
    else this.onError(`${where}: ADRCD ${r.adrcd}: PLZ "${r.plz}" is not 4 digits: kept without a postal code`);
    // The post town (ZUSTELLORT) is what Austrians write after the PLZ (`1010 Wien`, not the
    // Ortschaft `Wien,Innere Stadt`); without it the formatter writes the Ortschaft.
    if (street.postTown) d.postal_place = street.postTown;
    this.place(d, rowPosition(r.epsg, r.rw, r.hw), `${where}: ADRCD ${r.adrcd}`);
    d.name = formatAddress(d).formatted_address;
    return d;
  }

  /** A sub-address of `main`: its own id (ADRCD-SUBCD), number `12/3`, the building's position when it has a good one. */
  sub(main: PlaceDoc, adrcd: string, s: AtSubAddress, where: string): PlaceDoc {
    const d: PlaceDoc = { ...main, place_id: placeId('AT', 'address', `${adrcd}-${s.subcd}`), building_number: `${main.building_number ?? ''}${s.number}` };
    const pos = rowPosition(s.epsg, s.rw, s.hw);
    if (typeof pos === 'string') {
      if (pos !== 'no coordinates (RW/HW empty)') this.onError(`${where}: building ${adrcd}/${s.subcd}: ${pos}: given the address's position`);
    } else this.place(d, pos, where);
    d.name = formatAddress(d).formatted_address;
    return d;
  }

  private place(d: PlaceDoc, pos: LatLng | string, where: string): void {
    if (typeof pos === 'string') {
      this.onError(`${where}: ${pos}: kept without a position`);
      return;
    }
    d.lat = round7(pos.lat);
    d.lng = round7(pos.lng);
  }

  private once(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.onError(message);
  }
}
