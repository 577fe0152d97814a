import { COUNTRY_NAMES, escapeHtml, formatPostalCode, Place } from '@lookup/contracts';
import { formatAddress, postalCodeOf } from '../domain/address-format';
import { PlaceDoc } from '../domain/place.doc';

/**
 * The text a result is shown and highlighted as, per object kind. `shownWith`: the results
 * shown together; a municipality sharing its name with another among them (Nová Ves, 14 of
 * them) is shown with its county.
 */
export function displayText(d: PlaceDoc, shownWith: readonly PlaceDoc[] = []): string {
  switch (d.object) {
    case 'address':
      return formatAddress(d).formatted_address;
    case 'street':
      return d.street ?? d.name;
    case 'municipality':
      return d.county && shownWith.some((o) => o !== d && o.object === 'municipality' && o.name === d.name) ? `${d.name}, ${d.county}` : d.name;
    case 'postal_code':
      return formatPostalCode(d.country, d.postal_code ?? d.name);
    default:
      return d.name;
  }
}

function latlng(d: PlaceDoc): Place['latlng'] {
  return d.lat !== null && d.lng !== null ? { lat: d.lat, lng: d.lng } : null;
}

/**
 * Pure: a stored document to the API's Place, with the field set of its kind (spec, "Fields
 * present by object kind"); absent values are null. `highlight` defaults to the escaped
 * display text, as for detail and reverse results.
 */
export function toSearchPlace(d: PlaceDoc, highlight: string = escapeHtml(displayText(d))): Place {
  const tail = { object: d.object, formatted_country: COUNTRY_NAMES[d.country], country: d.country };
  switch (d.object) {
    case 'address': {
      const f = formatAddress(d);
      return {
        place_id: d.place_id,
        highlight,
        formatted_address: f.formatted_address,
        street: d.street ?? null,
        formatted_street: f.formatted_street,
        street_number: d.street_number,
        building_number: d.building_number,
        formatted_number: f.formatted_number,
        postal_code: postalCodeOf(d),
        municipality: d.municipality ?? null,
        district: d.district ?? null,
        county: d.county ?? null,
        region: d.region ?? null,
        latlng: latlng(d),
        ...tail,
      } as Place;
    }
    case 'street':
      return { place_id: d.place_id, highlight, street: d.street ?? d.name, municipality: d.municipality ?? null, ...tail } as Place;
    case 'postal_code':
      return { place_id: d.place_id, highlight, postal_code: formatPostalCode(d.country, d.postal_code ?? d.name), municipality: d.municipality ?? null, ...tail } as Place;
    case 'municipality':
      return {
        place_id: d.place_id,
        highlight,
        municipality: d.name,
        county: d.county ?? null,
        region: d.region ?? null,
        latlng: latlng(d),
        ...tail,
      } as Place;
    default:
      return { place_id: d.place_id, highlight, name: d.name, latlng: latlng(d), ...tail } as unknown as Place;
  }
}

/**
 * Key of what a user sees: two results that would look the same are one. Places of different
 * municipalities never are (two Frymburks, each with its county).
 */
export function dedupeKey(d: PlaceDoc): string {
  const municipality = d.object === 'municipality' ? d.place_id : (d.municipality_id ?? d.municipality ?? '');
  return `${d.object}|${displayText(d).toLowerCase()}|${municipality}|${d.postal_code ?? ''}`;
}

/** Pure: the ranked documents without repeats (by `dedupeKey`), at most `limit`. */
export function dedupeRanked(ranked: ReadonlyArray<{ doc: PlaceDoc }>, limit: number): PlaceDoc[] {
  const seen = new Set<string>();
  const out: PlaceDoc[] = [];
  for (const r of ranked) {
    const key = dedupeKey(r.doc);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r.doc);
    if (out.length >= limit) break;
  }
  return out;
}
