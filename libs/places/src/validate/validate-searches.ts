import { MAX_LIMIT, PlaceValidateRequest } from '@lookup/contracts';
import { AddressInput, numbersText } from './validate-input';

/** Parameters of one `places.query` search, as a caller would send them. */
export type SearchParams = Record<string, unknown>;

const QUERY_MAX = 200;

function text(...parts: (string | null | undefined)[]): string {
  // A trailing space: every word is complete, none is taken as a prefix.
  return `${parts.filter((p) => p && p.trim()).join(' ').slice(0, QUERY_MAX - 1)} `;
}

/**
 * Pure: the searches that find the candidates, strictest first; the service stops at the first
 * that gives a verdict. 1) as typed, the town and postal code as strict refiners; 2) everything
 * as words (the search's typo pass mends a misspelt town), the postal code only preferred (it
 * may be the wrong one); 3) street and number within the postal code (the town may be wrong),
 * also when the town is a word of `query` after the postal code; 4) without a postal code, the
 * address as written (a town after the house number may be its post office's).
 */
export function validationSearches(input: AddressInput, dto: PlaceValidateRequest): SearchParams[] {
  const base: SearchParams = {
    limit: MAX_LIMIT,
    ...(dto.country ? { country: dto.country } : {}),
    ...(dto.context ? { context: dto.context } : {}),
    ...(dto.around_latlng ? { around_latlng: dto.around_latlng } : {}),
    ...(dto.around_latlng_via_ip !== undefined ? { around_latlng_via_ip: dto.around_latlng_via_ip, caller_ip: dto.caller_ip } : {}),
  };
  const street = input.street?.words.map((w) => w.typed).join(' ');
  const loose = input.loose.map((w) => w.typed).join(' ');
  const numbers = numbersText(input.numbers);
  const town = input.municipality?.typed;
  const postal = input.postal && /^\d{1,6}$/.test(input.postal.digits) ? input.postal.digits : undefined;
  const streetish = text(street, numbers, loose);
  const out: SearchParams[] = [];
  if (streetish.trim()) {
    out.push({ ...base, query: streetish, contextType: 'strict', ...(town ? { municipality: town } : {}), ...(postal ? { postal_code: postal } : {}) });
  } else if (town) {
    out.push({ ...base, query: text(town), contextType: 'strict', ...(postal ? { postal_code: postal } : {}) });
  }
  if (town || postal) out.push({ ...base, query: text(street, numbers, loose, town), contextType: 'preference', ...(postal ? { postal_code: postal } : {}) });
  if (postal && town && streetish.trim()) out.push({ ...base, query: streetish, contextType: 'strict', postal_code: postal });
  // The town written in `query` after its postal code (`Lihovarská 79/22a, 746 01 Olomouc`) may be the wrong one too: the text before the code, within it.
  const at = !town && !dto.postal_code && input.postal && dto.query ? dto.query.indexOf(input.postal.typed) : -1;
  const before = at > 0 ? dto.query!.slice(0, at) : '';
  if (postal && before.trim() && text(street, before).trim() !== streetish.trim()) out.push({ ...base, query: text(street, before), contextType: 'strict', postal_code: postal });
  // No postal code: the address as written, its words in their order (`Rančířov 86, Jihlava`). The
  // search reads words after the house number that find nothing as the post office's town of the
  // address's own code (withoutOfficeTown); the texts above put the number first and hide that.
  const written = !input.postal && dto.query?.trim() && (town || input.loose.length > 1) ? text(dto.query, town) : '';
  if (written.trim() && !out.some((p) => p['query'] === written)) out.push({ ...base, query: written, contextType: 'strict' });
  return out;
}
