import { csvObjects } from '../io/csv';
import { readLines } from '../io/lines';
import type { SourceFile } from '../io/source';

/**
 * Columns of swisstopo's "amtliches Gebäudeadressverzeichnis" CSV
 * (`amtliches-gebaeudeadressverzeichnis_ch_2056.csv`, also shipped as `pure_adr.csv`), in the
 * published order. Rows are read by header name, so an added or moved column does not shift the
 * others; the ones in `CH_REQUIRED_COLUMNS` must be there.
 */
export const CH_ADDRESS_COLUMNS = [
  'ADR_EGAID', 'STR_ESID', 'BDG_EGID', 'ADR_EDID', 'STN_LABEL', 'ADR_NUMBER', 'BDG_CATEGORY', 'BDG_NAME', 'ZIP_LABEL',
  'COM_FOSNR', 'COM_NAME', 'COM_CANTON', 'ADR_STATUS', 'ADR_OFFICIAL', 'ADR_MODIFIED', 'ADR_EASTING', 'ADR_NORTHING',
] as const;

export const CH_REQUIRED_COLUMNS = ['ADR_EGAID', 'STR_ESID', 'STN_LABEL', 'ADR_NUMBER', 'ZIP_LABEL', 'COM_FOSNR', 'COM_CANTON', 'ADR_STATUS', 'ADR_EASTING', 'ADR_NORTHING'] as const;

/**
 * The file also holds Liechtenstein's official addresses: its 11 municipalities have the BFS
 * numbers 7001 (Balzers) to 7011 (Vaduz), and no canton.
 */
export function isLiechtensteinBfs(bfs: string): boolean {
  const n = Number(bfs);
  return n >= 7001 && n <= 7011;
}

/** One address row, checked: ids are digits, the PLZ four digits, the canton two letters (none in LI). */
export interface ChAddressRow {
  /** `LI` for the rows of Liechtenstein's municipalities (BFS 7001-7011). */
  country: 'CH' | 'LI';
  egaid: string;
  esid: string;
  street: string;
  /** `12`, `12a`, `31.1`; empty where the address has none. */
  number: string;
  postalCode: string;
  /** The postal locality of ZIP_LABEL (`Zürich`, `Wabern`, `Lausanne 25`). */
  locality: string;
  bfs: string;
  /** COM_NAME; empty in the older 16-column files that lack it. */
  municipality: string;
  canton: string;
  /** `real`, `planned` or `outdated`. */
  status: string;
  official: boolean;
  /** LV95 metres, null when the row has none. */
  easting: number | null;
  northing: number | null;
  line: number;
}

export interface ChRowError {
  line: number;
  message: string;
  /** Whose row it is, by COM_FOSNR (`CH` when that is unreadable too). */
  country: 'CH' | 'LI';
}

const ZIP_LABEL = /^(\d{4})\s+(\S.*)$/;

/**
 * Streams the rows of one CSV source (UTF-8 with BOM, `;`, header line). A row that cannot be
 * an address goes to `onError` with its line and the reason; a file without the required
 * columns throws, naming them.
 */
export async function* readChAddressCsv(source: SourceFile | string, onError: (e: ChRowError) => void): AsyncGenerator<ChAddressRow> {
  let checked = false;
  for await (const { row, line, width, headerWidth } of csvObjects(readLines(source), { delimiter: ';' })) {
    if (!checked) {
      const missing = CH_REQUIRED_COLUMNS.filter((c) => !(c in row));
      if (missing.length) throw new Error(`not an amtliches Gebäudeadressverzeichnis CSV: no column ${missing.join(', ')}`);
      checked = true;
    }
    const parsed = parseRow(row, line, width, headerWidth);
    if (typeof parsed === 'string') onError({ line, message: parsed, country: isLiechtensteinBfs((row['COM_FOSNR'] ?? '').trim()) ? 'LI' : 'CH' });
    else yield parsed;
  }
}

function parseRow(r: Record<string, string>, line: number, width: number, headerWidth: number): ChAddressRow | string {
  if (width !== headerWidth) return `${width} fields, the header has ${headerWidth}`;
  const egaid = r['ADR_EGAID']!.trim();
  if (!/^\d+$/.test(egaid)) return `ADR_EGAID "${egaid}" is not a number`;
  const street = r['STN_LABEL']!.trim();
  if (!street) return `EGAID ${egaid}: empty STN_LABEL`;
  const zip = ZIP_LABEL.exec(r['ZIP_LABEL']!.trim());
  if (!zip) return `EGAID ${egaid}: ZIP_LABEL "${r['ZIP_LABEL']}" is not "<4-digit PLZ> <locality>"`;
  const bfs = r['COM_FOSNR']!.trim();
  if (!/^\d{1,4}$/.test(bfs)) return `EGAID ${egaid}: COM_FOSNR "${bfs}" is not a BFS municipality number`;
  const country = isLiechtensteinBfs(bfs) ? 'LI' : 'CH';
  // Whatever an LI row writes as its canton (empty, `FL`), Liechtenstein has none.
  const canton = country === 'LI' ? '' : r['COM_CANTON']!.trim().toUpperCase();
  if (country === 'CH' && !/^[A-Z]{2}$/.test(canton)) return `EGAID ${egaid}: COM_CANTON "${r['COM_CANTON']}" is not a canton abbreviation`;
  const esid = r['STR_ESID']!.trim();
  return {
    country, egaid, esid: /^\d+$/.test(esid) ? esid : '', street, number: r['ADR_NUMBER']!.trim(),
    postalCode: zip[1]!, locality: zip[2]!.trim(), bfs, municipality: (r['COM_NAME'] ?? '').trim(), canton,
    status: r['ADR_STATUS']!.trim().toLowerCase(), official: (r['ADR_OFFICIAL'] ?? '').trim().toLowerCase() === 'true',
    easting: metres(r['ADR_EASTING']!), northing: metres(r['ADR_NORTHING']!), line,
  };
}

/** NaN marks text that is not a number, so the builder can report it; empty is simply "no position". */
function metres(s: string): number | null {
  const t = s.trim();
  if (!t) return null;
  return /^[+-]?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}
