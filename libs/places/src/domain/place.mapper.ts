import { CatalogueEntry, COUNTRY_NAMES, escapeHtml, Place } from '@lookup/contracts';
import { PlaceDoc } from './place.doc';

/** Pure: a stored document to the API's objects. Field sets per `object` as in the spec. */
export function toCatalogueEntry(d: PlaceDoc): CatalogueEntry {
  return {
    place_id: d.place_id,
    name: d.name,
    object: d.object as 'region' | 'county',
    formatted_country: COUNTRY_NAMES[d.country],
    country: d.country,
  };
}

/**
 * Object literals, no spreads: `{ ...base, a, b, ...tail }` took about 8 µs per object in V8 (Node
 * 20), a literal 0.1-0.3 µs: 50 ms of the 6 253 CZ municipalities' catalogue answer. The key
 * order is the answer's field order (tested).
 */
export function toPlace(d: PlaceDoc, highlight = escapeHtml(d.name)): Place {
  const latlng = d.lat !== null && d.lng !== null ? { lat: d.lat, lng: d.lng } : null;
  const formatted_country = COUNTRY_NAMES[d.country];
  switch (d.object) {
    case 'municipality':
      // A municipality without a county (AT Statutarstadt, CH/LI) says so with null, as search results do.
      return { place_id: d.place_id, highlight, municipality: d.name, county: d.county ?? null, region: d.region ?? null, latlng, object: d.object, formatted_country, country: d.country } as Place;
    case 'region':
    case 'county':
      return { place_id: d.place_id, highlight, name: d.name, object: d.object, formatted_country, country: d.country, latlng } as unknown as Place;
    default:
      return { place_id: d.place_id, highlight, object: d.object, formatted_country, country: d.country, latlng } as Place;
  }
}

const LOCALES: Record<string, string> = { CZ: 'cs', SK: 'sk', PL: 'pl', AT: 'de-AT', CH: 'de-CH', LI: 'de-LI' };

/** Catalogue order: the country's own alphabet (Czech `ch` after `h`, and so on), ids break ties. */
export function sortByName(docs: PlaceDoc[], country: string): PlaceDoc[] {
  const coll = new Intl.Collator(LOCALES[country] ?? 'en', { sensitivity: 'base' });
  return [...docs].sort((a, b) => coll.compare(a.name, b.name) || (a.place_id < b.place_id ? -1 : a.place_id > b.place_id ? 1 : 0));
}
