import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { jtskToWgs84 } from '../../geo/sjtsk';
import { round7 } from '../address-aggregates';
import type { RuianAddressRow } from './ruian-csv.reader';

/** Praha's RUIAN municipality code: its addresses are written with the district (`Praha 9`). */
export const PRAHA_CODE = '554782';

/**
 * RUIAN rows -> address docs. County and region come from the catalogue municipality with the
 * same RUIAN code; a municipality the catalogue lacks keeps its RUIAN name, no county/region,
 * and is reported once.
 */
export class RuianAddressBuilder {
  private readonly unknown = new Set<string>();

  constructor(
    private readonly catalogueMunicipality: (id: string) => PlaceDoc | undefined,
    private readonly onError: (message: string) => void,
  ) {}

  build(r: RuianAddressRow): PlaceDoc {
    const municipalityId = placeId('CZ', 'municipality', r.municipalityCode);
    const d = emptyDoc('CZ', 'address', placeId('CZ', 'address', r.admCode), '');
    const m = this.catalogueMunicipality(municipalityId);
    if (m) {
      d.region_id = m.region_id;
      d.region = m.region;
      d.county_id = m.county_id;
      d.county = m.county;
      d.municipality = m.name;
    } else {
      d.municipality = r.municipalityName;
      if (!this.unknown.has(municipalityId)) {
        this.unknown.add(municipalityId);
        this.onError(`municipality ${r.municipalityCode} "${r.municipalityName}" is not in the catalogue: its addresses have no county or region`);
      }
    }
    d.municipality_id = municipalityId;
    d.district = r.partName || null;
    d.street = r.streetName;
    d.street_id = r.streetCode ? placeId('CZ', 'street', r.streetCode) : null;
    d.street_number = r.houseNumber;
    d.number_kind = r.kind;
    d.building_number = r.orientation;
    d.postal_code = r.postalCode;
    d.city_district = r.momcName;
    d.postal_place = r.municipalityCode === PRAHA_CODE ? r.pragueDistrictName : null;
    if (r.x !== null && r.y !== null) {
      const { lat, lng } = jtskToWgs84(r.x, r.y);
      d.lat = round7(lat);
      d.lng = round7(lng);
    }
    d.name = formatAddress(d).formatted_address;
    return d;
  }
}
