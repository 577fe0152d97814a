import { BusinessDoc, isActive } from '../domain/business.doc';
import { cinKey } from '../domain/cin';
import { nameKey } from '../domain/name-tokens';

/** The derived search fields both engines index, computed once here so they agree. */
export interface IndexedFields {
  name_key: string;
  cin_key: string;
  active: boolean;
}

export function indexedFields(d: BusinessDoc): IndexedFields {
  return { name_key: nameKey(d.name), cin_key: cinKey(d.cin), active: isActive(d) };
}

/** Upper bound of a prefix range over keys made of [a-z0-9 ]. */
export function prefixEnd(prefix: string): string {
  return prefix + '\u{10FFFF}';
}
