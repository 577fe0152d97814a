import { packJson, unpackJson } from '@lookup/shared/search';
import { docOf, docOfPacked, packedDoc, PlaceDoc } from '../domain/place.doc';
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

/**
 * The document as the `doc` column holds it: `packedDoc`'s JSON array in base64 (`packJson`).
 * Searches read their candidates from this column instead of `_source` (see PackedHitsReader).
 */
export function packDoc(d: PlaceDoc): string {
  return packJson(packedDoc(d));
}

/** `packDoc` undone; null for text that is not a packed document of this format. */
export function unpackDoc(base64: string): PlaceDoc | null {
  return docOfPacked(unpackJson(base64));
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
