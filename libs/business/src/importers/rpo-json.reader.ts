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

/** An RPO answer or dump: `{ results: [...] }`, an array, or one entity. */
export function rpoEntities(json: unknown): RpoEntity[] {
  if (Array.isArray(json)) return json as RpoEntity[];
  if (json && typeof json === 'object' && Array.isArray((json as { results?: unknown }).results)) return (json as { results: RpoEntity[] }).results;
  if (json && typeof json === 'object' && 'identifiers' in json) return [json as RpoEntity];
  throw new Error('not an RPO entity answer: no results and no identifiers');
}
