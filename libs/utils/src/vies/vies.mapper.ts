import { VatCheckResult, VIES_OBJECT } from '@lookup/contracts';
import { ViesAnswer, ViesRequestBody } from './vies.client';

/** VIES's own placeholders for a field it has no value for. */
export const VIES_BLANK = '---';
export const NOT_PROCESSED = 'NOT_PROCESSED';

const text = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

/** The spec's EU VAT check result from VIES's answer: exactly its fields, blanks as VIES writes them. */
export function toVatCheckResult(a: ViesAnswer, sent: ViesRequestBody): VatCheckResult {
  return {
    countryCode: text(a.countryCode, sent.countryCode),
    vatNumber: text(a.vatNumber, sent.vatNumber),
    requestDate: text(a.requestDate, new Date().toISOString()),
    valid: a.valid === true,
    requestIdentifier: typeof a.requestIdentifier === 'string' ? a.requestIdentifier : '',
    name: text(a.name, VIES_BLANK),
    address: text(a.address, VIES_BLANK),
    traderName: text(a.traderName, VIES_BLANK),
    traderStreet: text(a.traderStreet, VIES_BLANK),
    traderPostalCode: text(a.traderPostalCode, VIES_BLANK),
    traderCity: text(a.traderCity, VIES_BLANK),
    traderCompanyType: text(a.traderCompanyType, VIES_BLANK),
    traderNameMatch: text(a.traderNameMatch, NOT_PROCESSED),
    traderStreetMatch: text(a.traderStreetMatch, NOT_PROCESSED),
    traderPostalCodeMatch: text(a.traderPostalCodeMatch, NOT_PROCESSED),
    traderCityMatch: text(a.traderCityMatch, NOT_PROCESSED),
    traderCompanyTypeMatch: text(a.traderCompanyTypeMatch, NOT_PROCESSED),
    object: VIES_OBJECT,
  };
}
