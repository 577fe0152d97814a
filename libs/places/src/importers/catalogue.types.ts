import { CountryCode } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';

/** A country's region -> county -> municipality catalogue, before and after coordinates. */
export interface Catalogue {
  country: CountryCode;
  regions: PlaceDoc[];
  counties: PlaceDoc[];
  municipalities: PlaceDoc[];
  /** Per municipality place_id: its postal codes, digits only (CZ: from the PSC list; SK: of the GeoNames rows that placed it; PL, AT, CH, LI: of its GeoNames rows). */
  postalCodes: Map<string, Set<string>>;
  /** Per municipality place_id: names of its parts (CZ `nazcobce`). */
  parts: Map<string, Set<string>>;
  /** Records that could not be placed, with the reason; the rest of the catalogue is still usable. */
  errors: string[];
}

export function emptyCatalogue(country: CountryCode): Catalogue {
  return { country, regions: [], counties: [], municipalities: [], postalCodes: new Map(), parts: new Map(), errors: [] };
}

export function byPlaceId(a: PlaceDoc, b: PlaceDoc): number {
  return a.place_id < b.place_id ? -1 : a.place_id > b.place_id ? 1 : 0;
}
