import { padCin } from '../domain/cin';
import { BusinessDoc, businessIdFor } from '../domain/business.doc';
import { czLegalForm, czOrganizationSize, naceSegment } from '../domain/register-codes';
import { AddressLookup } from './address-lookup';
import { AddressParts, EMPTY_ADDRESS, parseTextAddress } from './address-text';
import { csvObjects, fileLines, TextEncoding } from './io/text-lines';

/**
 * Columns of the Czech Statistical Office's RES open data (`res_data.csv`, comma-separated,
 * header line, UTF-8), in the order published.
 */
export const RES_COLUMNS = [
  'ICO', 'OKRESLAU', 'DDATVZN', 'DDATZAN', 'ZPZAN', 'DDATPAKT', 'FORMA', 'ROSFORMA', 'KATPO', 'NACE', 'NACE2025',
  'ICZUJ', 'FIRMA', 'CISS2010', 'KODADM', 'TEXTADR', 'PSC', 'OBEC_TEXT', 'COBCE_TEXT', 'ULICE_TEXT', 'TYPCDOM',
  'CDOM', 'COR', 'DATPLAT', 'PRIZNAK',
] as const;
export type ResColumn = (typeof RES_COLUMNS)[number];
export type ResRow = Partial<Record<ResColumn, string>>;
const REQUIRED: ResColumn[] = ['ICO', 'FIRMA', 'DDATVZN', 'DDATZAN', 'FORMA'];

/** `2019-03-01`, also `1.3.2019` and `20190301`; null when empty or not a date. */
export function resDate(v: string | undefined): string | null {
  const t = (v ?? '').trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/.exec(t);
  if (m) return `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** The RES's own address columns; `TYPCDOM` 2 marks an evidence number. */
function resColumnsAddress(r: ResRow): AddressParts | null {
  const cdom = (r.CDOM ?? '').trim();
  const municipality = (r.OBEC_TEXT ?? '').trim();
  if (!municipality && !cdom) return null;
  return {
    street: (r.ULICE_TEXT ?? '').trim(),
    street_number: cdom ? ((r.TYPCDOM ?? '').trim() === '2' ? `č. ev. ${cdom}` : cdom) : null,
    building_number: (r.COR ?? '').replace(/\s+/g, ''),
    postal_code: (r.PSC ?? '').replace(/\s+/g, ''),
    municipality,
    district: (r.COBCE_TEXT ?? '').trim(),
  };
}

/**
 * Pure: one RES row -> an entity, or null when it has no valid IČO or no name (RES keeps
 * only the number and dates of some terminated sole traders). The address comes from the
 * RUIAN address point when a lookup is given and knows `KODADM`, else from the row itself.
 */
export function resRowToDoc(r: ResRow, addresses?: AddressLookup | null): BusinessDoc | null {
  const cin = padCin(r.ICO ?? '');
  const name = (r.FIRMA ?? '').replace(/\s+/g, ' ').trim();
  if (!cin || !name) return null;
  const kodAdm = Number((r.KODADM ?? '').trim());
  const address =
    (addresses && Number.isSafeInteger(kodAdm) && kodAdm > 0 ? addresses.get(kodAdm) : null) ??
    resColumnsAddress(r) ??
    (r.TEXTADR ? parseTextAddress(r.TEXTADR) : { ...EMPTY_ADDRESS });
  const form = (r.FORMA ?? '').trim();
  return {
    business_id: businessIdFor('CZ', cin),
    country: 'CZ',
    name,
    established_on: resDate(r.DDATVZN),
    terminated_on: resDate(r.DDATZAN),
    cin,
    // RES publishes neither the tax number nor the VAT registration: ARES refreshes add them.
    tin: null,
    vatin: null,
    ...address,
    legal_form: czLegalForm(form),
    legal_form_code: form,
    segment: naceSegment(r.NACE, 'CZ'),
    organization_size: czOrganizationSize(r.KATPO),
  };
}

export interface ResReadOptions {
  encoding?: TextEncoding;
  addresses?: AddressLookup | null;
  batchSize?: number;
  /** Rows that give no entity (no IČO or name) are counted here. */
  onSkip?: (line: number) => void;
}

/** Streams `res_data.csv` as batches of entities; fails fast when the header is not RES's. */
export async function* readResCsv(lines: AsyncIterable<string>, options: ResReadOptions = {}): AsyncGenerator<BusinessDoc[]> {
  const size = options.batchSize ?? 2000;
  let batch: BusinessDoc[] = [];
  let checked = false;
  for await (const { row, line } of csvObjects(lines, ',')) {
    if (!checked) {
      const missing = REQUIRED.filter((c) => !(c in row));
      if (missing.length) throw new Error(`not a RES res_data.csv: missing column(s) ${missing.join(', ')}`);
      checked = true;
    }
    const doc = resRowToDoc(row as ResRow, options.addresses);
    if (!doc) {
      options.onSkip?.(line);
      continue;
    }
    batch.push(doc);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export function readResCsvFile(path: string, options: ResReadOptions = {}): AsyncGenerator<BusinessDoc[]> {
  return readResCsv(fileLines(path, options.encoding ?? 'utf8'), options);
}
