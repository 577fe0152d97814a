import { Readable } from 'node:stream';
import { csvObjects } from '../io/csv';
import { LineInput, readLines } from '../io/lines';
import { SourceFile, sourcesAt } from '../io/source';

/** One row of the Czech catalogue CSV: a part of a municipality with one of its PSCs. */
export interface CzCatalogueRow {
  partCode: string;
  partName: string;
  /** PSC, digits only. */
  postalCode: string;
  municipalityCode: string;
  municipalityName: string;
  countyCode: string;
  countyName: string;
  regionCode: string;
  regionName: string;
  /** Městská část / obvod (Praha, Brno, Ostrava, ...), when the part lies in one. */
  cityDistrictCode: string | null;
  cityDistrictName: string | null;
  pragueDistrictCode: string | null;
  pragueDistrictName: string | null;
  line: number;
}

export interface RowError {
  line: number;
  message: string;
}

const COLUMNS = {
  partCode: 'kodcobce',
  partName: 'nazcobce',
  postalCode: 'psc',
  municipalityCode: 'kodobce',
  municipalityName: 'nazobce',
  countyCode: 'kodokresu',
  countyName: 'nazokresu',
  regionCode: 'kodkraj',
  regionName: 'nazevkraj',
} as const;

/** How a PSC list is written: Česká pošta's own file (`;`, windows-1250) or a UTF-8 comma export of it. */
export interface PscListDialect {
  delimiter: ',' | ';';
  encoding: 'utf-8' | 'windows-1250';
}

/**
 * The dialect from the file's first bytes: `;` when the header line has one and no comma;
 * windows-1250 when those bytes are not UTF-8 (Czech letters in cp1250 never are).
 */
export function pscListDialect(head: Buffer): PscListDialect {
  // A UTF-8 character cut at the end of the sample is not a reason to call it cp1250.
  let end = head.length;
  while (end > 0 && end > head.length - 4 && (head[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && head[end - 1]! >= 0xc0) end--;
  let encoding: PscListDialect['encoding'] = 'utf-8';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    encoding = 'windows-1250';
  }
  const header = head.toString('latin1').split(/\r?\n/)[0] ?? '';
  return { delimiter: header.includes(';') && !header.includes(',') ? ';' : ',', encoding };
}

async function firstBytes(source: SourceFile, n = 65536): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  const stream = await source.open();
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      got += (chunk as Buffer).length;
      if (got >= n) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, n);
}

/**
 * Streams the Czech catalogue: Česká pošta's "Seznam částí obcí a obcí s PSČ" (`zv_cobce_psc.zip`
 * or its `zv_cobce_psc.csv`: `;`-separated, windows-1250, header `kodcobce;nazcobce;psc;kodobce;...`),
 * or the same columns as a UTF-8 comma CSV (`psc-list.csv`); the dialect is read from the file.
 * Rows missing a code or name, or with a PSC that is not five digits, go to `onError` with their line.
 */
export async function* readCzCatalogueCsv(
  input: string | Readable,
  onError: (e: RowError) => void = () => undefined,
): AsyncGenerator<CzCatalogueRow> {
  if (typeof input !== 'string') {
    yield* catalogueRows(readLines(input), ',', onError);
    return;
  }
  // The file itself, or the one `.csv` of a zip (read while the zip is open).
  for await (const source of sourcesAt(input, /\.csv$/i)) {
    const dialect = pscListDialect(await firstBytes(source));
    yield* catalogueRows(readLines(source as LineInput, { encoding: dialect.encoding }), dialect.delimiter, onError);
    return;
  }
  throw new Error(`${input}: no .csv in the zip (Česká pošta's zv_cobce_psc.zip holds zv_cobce_psc.csv)`);
}

async function* catalogueRows(lines: AsyncIterable<string>, delimiter: string, onError: (e: RowError) => void): AsyncGenerator<CzCatalogueRow> {
  let checked = false;
  for await (const { row, line, width, headerWidth } of csvObjects(lines, { delimiter })) {
    if (!checked) {
      const missing = Object.values(COLUMNS).filter((c) => !(c in row));
      if (missing.length) throw new Error(`PSC list: header lacks ${missing.join(', ')}`);
      checked = true;
    }
    if (width !== headerWidth) {
      onError({ line, message: `${width} fields where the header has ${headerWidth}` });
      continue;
    }
    const v = {} as Record<keyof typeof COLUMNS, string>;
    for (const [key, col] of Object.entries(COLUMNS)) v[key as keyof typeof COLUMNS] = (row[col] ?? '').trim();
    const empty = Object.entries(v).filter(([, x]) => !x).map(([k]) => COLUMNS[k as keyof typeof COLUMNS]);
    if (empty.length) {
      onError({ line, message: `empty ${empty.join(', ')}` });
      continue;
    }
    const postalCode = v.postalCode.replace(/\s+/g, '');
    if (!/^\d{5}$/.test(postalCode)) {
      onError({ line, message: `PSC "${v.postalCode}" is not five digits` });
      continue;
    }
    yield {
      ...v,
      postalCode,
      cityDistrictCode: orNull(row['kodmomc']),
      cityDistrictName: orNull(row['nazmomc']),
      pragueDistrictCode: orNull(row['kodpobvod']),
      pragueDistrictName: orNull(row['nazpobvod']),
      line,
    };
  }
}

function orNull(s: string | undefined): string | null {
  const t = s?.trim();
  return t ? t : null;
}
