import { packJson, unpackJson } from '@lookup/shared/search';
import { docOf, PlaceDoc } from '../domain/place.doc';
import { docTokens } from '../search/doc-tokens';

/**
 * A PlaceDoc as the places index stores it: plus the geo_point, the token field and the packed
 * document (`packDoc`, a binary doc-values column); the mapping keeps the last two out of `_source`.
 */
export type Stored = PlaceDoc & { location?: { lat: number; lon: number }; tokens?: string; doc?: string };

export function toStored(d: PlaceDoc): Stored {
  const s: Stored = { ...d, tokens: docTokens(d).join(' '), doc: packDoc(d) };
  if (d.lat !== null && d.lng !== null) s.location = { lat: d.lat, lon: d.lng };
  return s;
}

/** The packed document's format: its first element. Another value reads as no packed document. */
const PACKED_V1 = 1;

/**
 * The document as the `doc` column holds it (`packJson`): the JSON array `[1, place_id, country,
 * ...]`, every PlaceDoc field in PlaceDoc's order, without the keys. Searches read their
 * candidates from this column instead of `_source` (see PackedHitsReader).
 */
export function packDoc(d: PlaceDoc): string {
  const values = [
    PACKED_V1, d.place_id, d.country, d.object, d.name, d.region_id, d.region, d.county_id, d.county, d.municipality_id, d.municipality, d.district, d.street,
    d.street_number, d.number_kind, d.building_number, d.street_id, d.postal_code, d.lat, d.lng, d.weight, d.city_district, d.postal_place,
  ];
  return packJson(values);
}

/** `packDoc` undone, as an object literal (see fromStored); null for text that is not a packed document of this format. */
export function unpackDoc(base64: string): PlaceDoc | null {
  const v = unpackJson(base64);
  if (!Array.isArray(v) || v[0] !== PACKED_V1 || v.length !== 23) return null;
  return {
    place_id: v[1], country: v[2], object: v[3], name: v[4],
    region_id: v[5], region: v[6], county_id: v[7], county: v[8],
    municipality_id: v[9], municipality: v[10], district: v[11], street: v[12],
    street_number: v[13], number_kind: v[14], building_number: v[15], street_id: v[16],
    postal_code: v[17], lat: v[18], lng: v[19], weight: v[20],
    city_district: v[21], postal_place: v[22],
  } as PlaceDoc;
}

/**
 * The stored source back to a PlaceDoc, as docOf's object literal: a rest destructuring
 * (`{ location, tokens, ...doc }`) cost about 1.7 µs per document in V8 (Node 20), 0.5 ms of a
 * 300-hit search; the literal 0.1-0.2 µs. A field missing from an older index reads as null, as
 * SQLite's rows do. `opensearch-places.stored.spec.ts` checks every PlaceDoc field comes back.
 */
export function fromStored(s: Stored): PlaceDoc {
  return docOf(s);
}
