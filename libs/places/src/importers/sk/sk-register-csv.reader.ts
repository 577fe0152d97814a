import { csvObjects } from '../io/csv';
import { readLines } from '../io/lines';
import { SourceFile, sourcesAt } from '../io/source';
import { namedAfter, readRegisterBatch, RegisterChange, RegisterParents } from './sk-register-xml.reader';

/**
 * The data.slovensko.sk (formerly data.gov.sk) CSV dumps of Register adries: one table per
 * register, one row per time version of an object, the XML batch's fields under camelCase
 * column names (`objectId, versionId, validFrom, validTo, ..., buildingNumber, postalCode,
 * axisB, axisL, propertyRegistrationNumberIdentifier, streetNameIdentifier`), UTF-8, `,`
 * (a `;` header is accepted too), absent values as empty or `None`. Rows become the same
 * RegisterChange records as the XML batches, so one fold serves both.
 */
const TYPE_BY_COLUMN: [string, string][] = [
  ['regioncode', 'REGION'],
  ['countycode', 'COUNTY'],
  ['municipalitycode', 'MUNICIPALITY'],
  ['districtcode', 'DISTRICT'],
  ['streetname', 'STREET_NAME'],
  ['buildingindex', 'BUILDING_NUMBER'],
  ['propertyregistrationnumber', 'PROPERTY_REGISTRATION_NUMBER'],
  ['unitnumber', 'BUILDING_UNIT'],
];

/** Codelist item columns per type: they fill itemCode / itemName like `<CodelistItem>` does. */
const ITEM: Record<string, [string, string]> = {
  REGION: ['regioncode', 'regionname'],
  COUNTY: ['countycode', 'countyname'],
  MUNICIPALITY: ['municipalitycode', 'municipalityname'],
  DISTRICT: ['districtcode', 'districtname'],
};

/** Columns that become the XML leaf paths the fold reads. */
const FIELDS: Record<string, string> = {
  streetname: 'StreetName',
  propertyregistrationnumber: 'PropertyRegistrationNumber',
  buildingnumber: 'BuildingNumber',
  buildingindex: 'BuildingIndex',
  postalcode: 'PostalCode',
  axisb: 'AddressPoint.BLH.AxisB',
  axisl: 'AddressPoint.BLH.AxisL',
  status: 'status',
  unitnumber: 'UnitNumber',
  floor: 'Floor',
};

const PARENTS: Record<string, string> = {
  regionidentifier: 'regionIdentifier',
  countyidentifier: 'countyIdentifier',
  municipalityidentifier: 'municipalityIdentifier',
  districtidentifier: 'districtIdentifier',
  // Streets may span several municipalities / parts; the first one places the street.
  municipalityidentifiers: 'municipalityIdentifier',
  districtidentifiers: 'districtIdentifier',
  propertyregistrationnumberidentifier: 'propertyRegistrationNumberIdentifier',
  streetnameidentifier: 'streetNameIdentifier',
  buildingnumberidentifier: 'buildingNumberIdentifier',
};

export interface RegisterCsvError {
  source: string;
  line: number;
  message: string;
}

export function registerTypeOfHeader(header: string[]): string | null {
  const cols = new Set(header.map((h) => h.trim().toLowerCase()));
  return TYPE_BY_COLUMN.find(([c]) => cols.has(c))?.[1] ?? null;
}

/** `31. 12. 3000 0:00:00` (how some exports write dates) to ISO; ISO passes through. */
export function isoRegisterDate(s: string): string {
  const m = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s.trim());
  if (!m) return s.trim();
  const p = (x: string | undefined, n = 2) => (x ?? '0').padStart(n, '0');
  return `${m[3]}-${p(m[2])}-${p(m[1])}T${p(m[4])}:${p(m[5])}:${p(m[6])}`;
}

export async function* readRegisterCsv(
  file: SourceFile,
  wanted: Set<string> | null,
  onError: (e: RegisterCsvError) => void,
): AsyncGenerator<RegisterChange> {
  const lines = readLines(file);
  const first = await lines.next();
  if (first.done) return;
  const header = first.value;
  const delimiter = (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ';' : ',';
  const type = registerTypeOfHeader(header.split(delimiter));
  if (!type) throw new Error(`${file.name}: not a Register adries CSV table (no column tells the register type)`);
  if (wanted && !wanted.has(type)) return;
  async function* all(): AsyncGenerator<string> {
    yield header;
    yield* lines;
  }
  for await (const { row, line, width, headerWidth } of csvObjects(all(), { delimiter })) {
    const error = (message: string) => onError({ source: file.name, line, message });
    if (width !== headerWidth) {
      error(`${width} fields where the header has ${headerWidth}`);
      continue;
    }
    const lower = lowerKeys(row);
    const v = (col: string): string | undefined => {
      const x = lower[col]?.trim();
      return !x || x === 'None' || x === 'null' ? undefined : x;
    };
    const objectId = v('objectid');
    const versionId = Number(v('versionid'));
    if (!objectId || !Number.isFinite(versionId)) {
      error(`${type} row without objectId or versionId`);
      continue;
    }
    const parents: RegisterParents = {};
    for (const [col, key] of Object.entries(PARENTS)) {
      const id = v(col)?.match(/\d+/)?.[0];
      if (id && parents[key] === undefined) parents[key] = id;
    }
    const fields: Record<string, string> = {};
    for (const [col, key] of Object.entries(FIELDS)) {
      const x = v(col);
      if (x !== undefined) fields[key] = x;
    }
    const rec: RegisterChange = { type, operation: v('databaseoperation') ?? 'INSERT', objectId, versionId, parents, fields, source: file.name };
    const createdReason = v('createdreason');
    if (createdReason) rec.createdReason = createdReason;
    for (const k of ['validFrom', 'validTo', 'effectiveDate'] as const) {
      const x = v(k.toLowerCase());
      if (x !== undefined) rec[k] = isoRegisterDate(x);
    }
    const item = ITEM[type];
    if (item) {
      const [code, name] = [v(item[0]), v(item[1])];
      if (code !== undefined) rec.itemCode = code;
      if (name !== undefined) rec.itemName = name;
    }
    yield rec;
  }
}

/** Header names as written (`objectId`) or lowercased by a database export (`objectid`). */
function lowerKeys(row: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(row)) out[k.toLowerCase()] = x;
  return out;
}

/**
 * Every Register adries record at a path: XML batches and CSV tables, alone or in a zip or
 * folder, told apart by their extension.
 */
export async function* readRegisterSources(
  path: string,
  types: Iterable<string> | null,
  onError: (e: RegisterCsvError) => void,
): AsyncGenerator<RegisterChange> {
  const wanted = types ? new Set(types) : null;
  for await (const found of sourcesAt(path, /\.(xml|csv)$/i)) {
    const file = namedAfter(path, found);
    if (/\.csv$/i.test(file.name)) yield* readRegisterCsv(file, wanted, onError);
    else yield* readRegisterBatch(file, wanted);
  }
}
