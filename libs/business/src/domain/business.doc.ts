/**
 * One entity as stored by both engines: the API fields (unformatted parts) plus what the
 * importers know. Formatting (address, numbers) happens in the mapper, on the way out.
 */
export interface BusinessDoc {
  /** `cz_00177041`: lowercase country + the register's id number (stable across refreshes). */
  business_id: string;
  country: 'CZ' | 'SK';
  name: string;
  established_on: string | null;
  terminated_on: string | null;
  /** 8 digits, zero-padded. */
  cin: string;
  tin: string | null;
  vatin: string | null;
  street: string;
  /** Registry (conscription) number; `c. ev.` numbers keep their prefix. */
  street_number: string | null;
  /** Orientation number with its letter (`22a`). */
  building_number: string;
  postal_code: string;
  municipality: string;
  /** Part of the municipality: written instead of the street where there is none. */
  district: string;
  legal_form: string;
  legal_form_code: string;
  segment: string;
  organization_size: string;
}

/** Field names of the engines' documents (constants, never literals at call sites). */
export const BF = {
  id: 'business_id',
  country: 'country',
  nameKey: 'name_key',
  nameTokens: 'name_tokens',
  cin: 'cin',
  cinKey: 'cin_key',
  active: 'active',
  doc: 'doc',
  /** The document packed (opensearch-business.store.ts), a binary doc-values column that searches read. */
  packed: 'doc_packed',
} as const;

export function isActive(d: BusinessDoc): boolean {
  return d.terminated_on === null;
}

export function businessIdFor(country: 'CZ' | 'SK', token: string): string {
  return `${country.toLowerCase()}_${token.toLowerCase()}`;
}
