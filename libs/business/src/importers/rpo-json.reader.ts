import { padCin } from '../domain/cin';
import { BusinessDoc, businessIdFor } from '../domain/business.doc';
import { naceSegment } from '../domain/register-codes';
import { resDate } from './res-csv.reader';

/**
 * The Slovak RPO (register právnických osôb) open-data entity: every attribute is a history of
 * values with `validFrom`/`validTo`; the current one has no `validTo`.
 */
interface Valid {
  validFrom?: string;
  validTo?: string;
}
interface Coded {
  value?: string;
  code?: string;
  codelistCode?: string;
}
export interface RpoAddress extends Valid {
  street?: string;
  regNumber?: number;
  buildingNumber?: string;
  postalCodes?: string[];
  municipality?: Coded;
  country?: Coded;
}
export interface RpoEntity {
  id?: number;
  identifiers?: Array<Valid & { value?: string }>;
  fullNames?: Array<Valid & { value?: string }>;
  addresses?: RpoAddress[];
  legalForms?: Array<Valid & { value?: Coded }>;
  establishment?: string;
  termination?: string;
  statisticalCodes?: { mainActivity?: Coded; esa2010?: Coded };
}

/** The value without `validTo`; if every value has ended, the one that ended last. */
export function current<T extends Valid>(history: T[] | undefined): T | null {
  if (!history || history.length === 0) return null;
  const open = history.filter((h) => !h.validTo);
  const pool = open.length ? open : history;
  return [...pool].sort((a, b) => (a.validTo ?? a.validFrom ?? '').localeCompare(b.validTo ?? b.validFrom ?? '')).at(-1) ?? null;
}

/** Pure: an RPO entity -> an entity of ours, or null without an IČO or a name. */
export function rpoToDoc(e: RpoEntity): BusinessDoc | null {
  const cin = padCin(current(e.identifiers)?.value ?? '');
  const name = (current(e.fullNames)?.value ?? '').replace(/\s+/g, ' ').trim();
  if (!cin || !name) return null;
  const a = current(e.addresses);
  const form = current(e.legalForms)?.value;
  const reg = a?.regNumber && a.regNumber > 0 ? String(a.regNumber) : null;
  return {
    business_id: businessIdFor('SK', cin),
    country: 'SK',
    name,
    established_on: resDate(e.establishment),
    terminated_on: resDate(e.termination),
    cin,
    // RPO publishes no tax or VAT numbers.
    tin: null,
    vatin: null,
    street: a?.street ?? '',
    street_number: reg,
    building_number: a?.buildingNumber ?? '',
    postal_code: (a?.postalCodes?.[0] ?? '').replace(/\s+/g, ''),
    municipality: a?.municipality?.value ?? '',
    district: '',
    legal_form: form?.value ?? '',
    legal_form_code: form?.code ?? '',
    segment: naceSegment(e.statisticalCodes?.mainActivity?.code, 'SK'),
    organization_size: '',
  };
}

/**
 * An RPO answer or dump: a search answer (`/rpo/v1/search`: `{ results: [...] }`), an array, or
 * one entity's detail answer (`/rpo/v1/entity/{id}`). A search result carries only the id,
 * identifiers, names, addresses, establishment and termination; the legal forms and the
 * statistical codes (main activity) are in the detail answer alone.
 */
export function rpoEntities(json: unknown): RpoEntity[] {
  if (Array.isArray(json)) return json as RpoEntity[];
  if (json && typeof json === 'object' && Array.isArray((json as { results?: unknown }).results)) return (json as { results: RpoEntity[] }).results;
  if (json && typeof json === 'object' && 'identifiers' in json) return [json as RpoEntity];
  throw new Error('not an RPO entity answer: no results and no identifiers');
}

/** A search result without the detail: it has no legal form and no main activity. */
export function lacksDetail(e: RpoEntity): boolean {
  return !e.legalForms?.length && !e.statisticalCodes;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/**
 * Entities of several answers merged by RPO id (else by IČO), in the order first seen: a
 * detail answer fills what the search answer of the same entity lacks, and a later answer's
 * non-empty field replaces an earlier one's.
 */
export function mergeRpoEntities(entities: Iterable<RpoEntity>): RpoEntity[] {
  const byKey = new Map<string, RpoEntity>();
  for (const e of entities) {
    const key = e.id !== undefined ? `id ${e.id}` : `ico ${padCin(current(e.identifiers)?.value ?? '')}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...e });
      continue;
    }
    for (const [k, v] of Object.entries(e) as Array<[keyof RpoEntity, unknown]>) {
      if (!isEmpty(v)) (seen as Record<string, unknown>)[k] = v;
    }
  }
  return [...byKey.values()];
}
