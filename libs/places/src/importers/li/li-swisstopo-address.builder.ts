import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { LI_MUNICIPALITIES, LI_REGIONS } from '../geonames/geonames-names';
import type { ChAddressRow } from '../ch/ch-address-csv.reader';
import { isLv95InRange, lv95ToWgs84 } from '../ch/lv95';
import type { LiMunicipality } from './li-places';

export type PlaceLookup = (placeId: string) => PlaceDoc | undefined;

const BY_BFS = new Map<string, LiMunicipality>(Object.entries(LI_MUNICIPALITIES).map(([name, m]) => [m.bfs, { name, ...m }]));

/**
 * One Liechtenstein row of swisstopo's building-address file -> a LI address: the BFS number
 * names the municipality and its region (Oberland/Unterland), the postal locality of ZIP_LABEL
 * (`9485 Nendeln` in Eschen) becomes the district and the envelope's town when it is not the
 * municipality, as for the Swiss rows. Ids are the register's (EGAID, ESID), under `li_`.
 */
export class LiSwisstopoAddressBuilder {
  constructor(
    private readonly catalogue: PlaceLookup,
    private readonly onError: (message: string) => void,
  ) {}

  build(r: ChAddressRow, where: string): PlaceDoc {
    const m = BY_BFS.get(String(Number(r.bfs)))!;
    const d = emptyDoc('LI', 'address', placeId('LI', 'address', r.egaid), '');
    d.street = r.street;
    d.street_id = r.esid ? placeId('LI', 'street', r.esid) : null;
    d.building_number = r.number || null;
    d.postal_code = r.postalCode;
    d.municipality_id = placeId('LI', 'municipality', m.bfs);
    d.municipality = this.catalogue(d.municipality_id)?.name ?? m.name;
    d.region_id = placeId('LI', 'region', m.region);
    d.region = this.catalogue(d.region_id)?.name ?? LI_REGIONS[m.region];
    if (r.locality !== d.municipality) d.postal_place = r.locality;
    // `Gamprin-Bendern` is the post office of the whole municipality, not a part of it.
    if (r.locality !== d.municipality && !r.locality.includes(d.municipality)) d.district = r.locality;
    if (r.easting !== null && r.northing !== null) {
      if (Number.isFinite(r.easting) && Number.isFinite(r.northing) && isLv95InRange(r.easting, r.northing)) {
        Object.assign(d, lv95ToWgs84(r.easting, r.northing));
      } else this.onError(`${where}: EGAID ${r.egaid}: ADR_EASTING/ADR_NORTHING are not LV95 coordinates: kept without a position`);
    }
    d.name = formatAddress(d).formatted_address;
    return d;
  }
}
