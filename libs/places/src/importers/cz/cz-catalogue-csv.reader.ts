import { Readable } from 'node:stream';
import { csvObjects } from '../io/csv';
import { readLines } from '../io/lines';

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

/**
 * Streams `psc-list.csv` (UTF-8, header `kodcobce,nazcobce,psc,kodobce,...`). Rows missing
 * a code or name, or with a PSC that is not five digits, go to `onError` with their line.
 */
export async function* readCzCatalogueCsv(
  input: string | Readable,
  onError: (e: RowError) => void = () => undefined,
): AsyncGenerator<CzCatalogueRow> {
  let checked = false;
  for await (const { row, line, width, headerWidth } of csvObjects(readLines(input))) {
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
