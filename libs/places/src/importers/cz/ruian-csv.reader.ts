import { csvRecords } from '../io/csv';
import { LineInput, readLines } from '../io/lines';
import { isJtskInRange } from '../../geo/sjtsk';

/** One RUIAN address point (`*_OB_*_ADR.csv`), validated; codes are kept as the register writes them. */
export interface RuianAddressRow {
  admCode: string;
  municipalityCode: string;
  municipalityName: string;
  /** Městský obvod / městská část (statutory cities), when the address lies in one. */
  momcName: string | null;
  pragueDistrictName: string | null;
  partName: string;
  streetCode: string | null;
  streetName: string | null;
  kind: 'cp' | 'ce';
  houseNumber: string;
  /** Orientation number with its letter, `22a`. */
  orientation: string | null;
  postalCode: string;
  /** S-JTSK, positive (X the larger); null when the register has no position. */
  x: number | null;
  y: number | null;
  line: number;
}

export interface RuianRowError {
  line: number;
  message: string;
}

/** Header names with the diacritics and case folded, so `Kód ADM` and `Kod ADM` both match. */
const COLUMNS = {
  adm: 'kod adm',
  municipalityCode: 'kod obce',
  municipalityName: 'nazev obce',
  momcName: 'nazev momc',
  pragueDistrictName: 'nazev obvodu prahy',
  partName: 'nazev casti obce',
  streetCode: 'kod ulice',
  streetName: 'nazev ulice',
  kind: 'typ so',
  houseNumber: 'cislo domovni',
  orientation: 'cislo orientacni',
  letter: 'znak cisla orientacniho',
  postalCode: 'psc',
  y: 'souradnice y',
  x: 'souradnice x',
} as const;
type Column = keyof typeof COLUMNS;

export function foldHeader(h: string): string {
  return h.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase().replace(/\s+/g, ' ');
}

/** `č.p.` / `c.p.` -> cp, `č.ev.` / `c.ev.` -> ce (also with spaces). */
function kindOf(typSo: string): 'cp' | 'ce' | null {
  const t = foldHeader(typSo).replace(/[\s.]/g, '');
  return t === 'cp' ? 'cp' : t === 'cev' ? 'ce' : null;
}

/**
 * Streams one RUIAN address CSV (windows-1250, `;`, header line). A row that cannot become an
 * address goes to `onError` with its line and reason; the reading goes on.
 */
export async function* readRuianCsv(
  input: LineInput,
  onError: (e: RuianRowError) => void,
  encoding = 'windows-1250',
): AsyncGenerator<RuianAddressRow> {
  let idx: Record<Column, number> | null = null;
  let width = 0;
  for await (const { fields, line } of csvRecords(readLines(input, { encoding }), { delimiter: ';' })) {
    if (!idx) {
      idx = headerIndex(fields);
      width = fields.length;
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    if (fields.length !== width) {
      onError({ line, message: `${fields.length} fields where the header has ${width}` });
      continue;
    }
    const get = (c: Column) => fields[idx![c]]!.trim();
    const problem = (message: string) => onError({ line, message: `Kód ADM ${get('adm') || '?'}: ${message}` });
    const row = toRow(get, line, problem);
    if (row) yield row;
  }
  if (!idx) throw new Error('RUIAN CSV: no header line');
}

function headerIndex(header: string[]): Record<Column, number> {
  const folded = header.map(foldHeader);
  const out = {} as Record<Column, number>;
  const missing: string[] = [];
  for (const [key, name] of Object.entries(COLUMNS) as [Column, string][]) {
    const i = folded.indexOf(name);
    if (i < 0) missing.push(name);
    out[key] = i;
  }
  if (missing.length) throw new Error(`RUIAN CSV: header lacks ${missing.join(', ')}`);
  return out;
}

function toRow(get: (c: Column) => string, line: number, problem: (m: string) => void): RuianAddressRow | null {
  const admCode = get('adm');
  if (!/^\d+$/.test(admCode)) return problem('Kód ADM is not a number'), null;
  const municipalityCode = get('municipalityCode');
  if (!/^\d+$/.test(municipalityCode) || !get('municipalityName')) return problem('no municipality code or name'), null;
  const kind = kindOf(get('kind'));
  if (!kind) return problem(`Typ SO "${get('kind')}" is neither č.p. nor č.ev.`), null;
  const houseNumber = get('houseNumber');
  if (!/^\d+$/.test(houseNumber)) return problem(`Číslo domovní "${houseNumber}" is not a number`), null;
  const orientationNo = get('orientation');
  const letter = get('letter');
  if (orientationNo && !/^\d+$/.test(orientationNo)) return problem(`Číslo orientační "${orientationNo}" is not a number`), null;
  if (letter && (!orientationNo || !/^\p{L}$/u.test(letter))) return problem(`orientation letter "${letter}" without a number or not one letter`), null;
  const postalCode = get('postalCode').replace(/\s+/g, '');
  if (!/^\d{5}$/.test(postalCode)) return problem(`PSČ "${get('postalCode')}" is not five digits`), null;
  const pos = position(get('x'), get('y'));
  if (pos === 'bad') return problem(`coordinates Y "${get('y')}" X "${get('x')}" are not S-JTSK in the Czech range`), null;
  const streetName = get('streetName') || null;
  const streetCode = get('streetCode') || null;
  if ((streetName === null) !== (streetCode === null)) return problem('street code and street name must come together'), null;
  return {
    admCode,
    municipalityCode,
    municipalityName: get('municipalityName'),
    momcName: get('momcName') || null,
    pragueDistrictName: get('pragueDistrictName') || null,
    partName: get('partName'),
    streetCode,
    streetName,
    kind,
    houseNumber,
    orientation: orientationNo ? orientationNo + letter.toLowerCase() : null,
    postalCode,
    x: pos?.x ?? null,
    y: pos?.y ?? null,
    line,
  };
}

/** Both empty: no position (kept as an address without lat/lng); otherwise both must be S-JTSK. */
function position(xs: string, ys: string): { x: number; y: number } | null | 'bad' {
  if (!xs && !ys) return null;
  const x = Number(xs.replace(',', '.'));
  const y = Number(ys.replace(',', '.'));
  if (!xs || !ys || !Number.isFinite(x) || !Number.isFinite(y) || !isJtskInRange(x, y)) return 'bad';
  return { x: Math.abs(x), y: Math.abs(y) };
}
