import { Business, COUNTRY_NAMES, escapeHtml } from '@lookup/contracts';
import { BusinessDoc } from './business.doc';
import { formatAddress, formatNumber, formatStreet, postalCodeOf } from './business-address';

/**
 * Pure: a stored entity -> the API object; `highlight` is already HTML (escaped + <em>). The
 * registers' empty address parts are stored as `''`; they leave as null, as in places results.
 */
export function toBusiness(d: BusinessDoc, highlight?: string): Business {
  return {
    business_id: d.business_id,
    highlight: highlight ?? escapeHtml(d.name),
    name: d.name,
    established_on: d.established_on,
    terminated_on: d.terminated_on,
    cin: d.cin,
    tin: d.tin,
    vatin: d.vatin,
    formatted_address: formatAddress(d),
    street: d.street || null,
    formatted_street: formatStreet(d),
    street_number: d.street_number,
    building_number: d.building_number || null,
    formatted_number: formatNumber(d),
    postal_code: postalCodeOf(d),
    municipality: d.municipality || null,
    legal_form: d.legal_form,
    segment: d.segment,
    organization_size: d.organization_size,
    object: 'business',
    formatted_country: COUNTRY_NAMES[d.country],
    country: d.country,
  };
}
