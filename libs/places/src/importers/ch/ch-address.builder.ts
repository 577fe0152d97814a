import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { CH_CANTONS } from './cantons';
import type { ChAddressRow } from './ch-address-csv.reader';
import { isLv95InRange, lv95ToWgs84 } from './lv95';

export type PlaceLookup = (placeId: string) => PlaceDoc | undefined;

/**
 * One address row -> PlaceDoc in the shared model: the whole house number in
 * `building_number`, the postal locality as `district` (and as the envelope's town,
 * `postal_place`) when it is not the municipality's name, canton -> region, BFS number ->
 * municipality, and the county (Bezirk) only from the catalogue since the CSV has none.
 */
export class ChAddressBuilder {
  constructor(
    private readonly catalogue: PlaceLookup,
    private readonly onError: (message: string) => void,
  ) {}

  build(r: ChAddressRow, where: string): PlaceDoc {
    const d = emptyDoc('CH', 'address', placeId('CH', 'address', r.egaid), '');
    d.street = r.street;
    d.street_id = r.esid ? placeId('CH', 'street', r.esid) : null;
    d.building_number = r.number || null;
    d.postal_code = r.postalCode;
    const municipality = this.catalogue(placeId('CH', 'municipality', r.bfs));
    d.municipality_id = placeId('CH', 'municipality', r.bfs);
    d.municipality = municipality?.name ?? (r.municipality || r.locality);
    d.county_id = municipality?.county_id ?? null;
    d.county = municipality?.county ?? null;
    d.region_id = placeId('CH', 'region', r.canton);
    d.region = this.catalogue(d.region_id)?.name ?? CH_CANTONS[r.canton] ?? r.canton;
    if (r.locality !== d.municipality) d.postal_place = r.locality;
    const part = r.locality.replace(/\s+\d+$/, '');
    if (part !== d.municipality) d.district = part;
    this.position(d, r, where);
    d.name = formatAddress(d).formatted_address;
    return d;
  }

  private position(d: PlaceDoc, r: ChAddressRow, where: string): void {
    if (r.easting === null || r.northing === null) return;
    if (!Number.isFinite(r.easting) || !Number.isFinite(r.northing) || !isLv95InRange(r.easting, r.northing)) {
      this.onError(`${where}: EGAID ${r.egaid}: ADR_EASTING/ADR_NORTHING are not LV95 coordinates in Switzerland: kept without a position`);
      return;
    }
    const { lat, lng } = lv95ToWgs84(r.easting, r.northing);
    d.lat = lat;
    d.lng = lng;
  }
}
