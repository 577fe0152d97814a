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

/**
 * What a municipality weighs before its addresses are counted: its postal codes times this, about
 * the address points a Czech postal code serves in a town (the PSC list gives Praha 61 codes, the
 * register about 95 000 address points; Liberec 10 and 16 140, Plzeň 8 and 27 207). A town's
 * weight orders the names a typed start fits (`Pra`: Praha before Prace, see RankOptions.towns);
 * an address import, or a catalogue import over imported addresses, replaces it with the count of
 * the municipality's address points, so the estimate stays only where the addresses are missing
 * (a register extract without Praha, or no register: PL, AT, CH, LI).
 */
export const ADDRESSES_PER_POSTAL_CODE = 1500;

/** The weight of each municipality with postal codes in the catalogue (see ADDRESSES_PER_POSTAL_CODE). */
export function estimateTownWeights(cat: Catalogue): void {
  for (const m of cat.municipalities) {
    const codes = cat.postalCodes.get(m.place_id)?.size ?? 0;
    if (codes > 0) m.weight = codes * ADDRESSES_PER_POSTAL_CODE;
  }
}
