import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { fold } from '../../search/text-fold';
import { LI_REGIONS } from '../geonames/geonames-names';
import { LI_LOCALITIES, LI_POSTAL_CODES, LiMunicipality, liMunicipalityOfPlace, liPlaceName, liPostalCodeOfPlace } from './li-places';
import { areaAt, Area } from './osm-boundaries';
import type { OsmAddressCandidate } from './osm-address-scan';

export type PlaceLookup = (placeId: string) => PlaceDoc | undefined;

/**
 * An OSM element with `addr:*` tags -> a Liechtenstein address, or the reason it is not one.
 * The municipality comes from `addr:city` (a municipality or an Ortsteil), else from
 * `addr:postcode`, else from the municipality boundary the position lies in; a postcode of
 * another country, or no way to place it, is a reason to leave it out.
 */
export class LiOsmAddressBuilder {
  /** Address (municipality, street or place, number) -> the first element that had it. */
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly catalogue: PlaceLookup,
    private readonly areas: Area<LiMunicipality>[],
  ) {}

  build(c: OsmAddressCandidate): PlaceDoc | string {
    const t = c.tags;
    const number = t['addr:housenumber']?.trim();
    if (!number) return t['addr:housename'] ? 'a house name without addr:housenumber' : 'no addr:housenumber';
    const street = t['addr:street']?.trim() || null;
    const place = t['addr:place']?.trim() || null;
    if (!street && !place) return 'no addr:street or addr:place';
    const rawPostcode = t['addr:postcode']?.trim() ?? '';
    const postcode = rawPostcode.replace(/^(FL|LI)-?/i, '').replace(/\s+/g, '');
    if (postcode && !LI_POSTAL_CODES[postcode]) return `addr:postcode "${rawPostcode}" is not a Liechtenstein postal code`;
    const city = t['addr:city'] ? liPlaceName(t['addr:city']) : null;
    const municipality = this.municipality(city, postcode, c);
    if (!municipality) return `neither addr:city "${t['addr:city'] ?? ''}" nor addr:postcode "${rawPostcode}" names a Liechtenstein municipality, and it lies outside their boundaries`;
    const key = `${municipality.bfs}|${fold(street ?? place!)}|${number.toLowerCase()}`;
    const first = this.seen.get(key);
    if (first) return `the same address as ${first}`;
    this.seen.set(key, c.key);
    return this.doc(c, { street, place, number, city, postcode, municipality });
  }

  private municipality(city: string | null, postcode: string, c: OsmAddressCandidate): LiMunicipality | null {
    const byCity = city ? liMunicipalityOfPlace(city) : null;
    if (byCity) return byCity;
    const byPostcode = postcode ? liMunicipalityOfPlace(LI_POSTAL_CODES[postcode]!.municipality) : null;
    if (byPostcode) return byPostcode;
    return c.lat !== null && c.lng !== null ? areaAt(this.areas, c.lat, c.lng) : null;
  }

  private doc(
    c: OsmAddressCandidate,
    a: { street: string | null; place: string | null; number: string; city: string | null; postcode: string; municipality: LiMunicipality },
  ): PlaceDoc {
    const m = a.municipality;
    const d = emptyDoc('LI', 'address', placeId('LI', 'address', c.key), '');
    d.municipality_id = placeId('LI', 'municipality', m.bfs);
    d.municipality = this.catalogue(d.municipality_id)?.name ?? m.name;
    d.region_id = placeId('LI', 'region', m.region);
    d.region = this.catalogue(d.region_id)?.name ?? LI_REGIONS[m.region];
    d.street = a.street;
    d.street_id = a.street ? placeId('LI', 'street', `${m.bfs}-${fold(a.street)}`) : null;
    d.building_number = a.number;
    const locality = localityOf(a.city, m) ?? localityOf(a.postcode ? LI_POSTAL_CODES[a.postcode]!.place : null, m);
    d.district = a.street ? locality : a.place;
    d.postal_code = a.postcode || liPostalCodeOfPlace(a.city ?? m.name, m);
    const postalPlace = d.postal_code ? LI_POSTAL_CODES[d.postal_code]?.place : undefined;
    // The envelope names the post office (`9497 Triesenberg`) even where the address lies in an Ortsteil (Steg).
    if (postalPlace && (postalPlace !== d.municipality || d.district)) d.postal_place = postalPlace;
    d.lat = c.lat;
    d.lng = c.lng;
    d.name = formatAddress(d).formatted_address;
    return d;
  }
}

/** An Ortsteil name (`Nendeln`) of this municipality, not a combined postal name (`Gamprin-Bendern`). */
function localityOf(name: string | null, m: LiMunicipality): string | null {
  if (!name || name === m.name || LI_LOCALITIES[name] !== m.name || name.includes(m.name)) return null;
  return name;
}
