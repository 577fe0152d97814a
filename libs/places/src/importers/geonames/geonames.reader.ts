import { Readable } from 'node:stream';
import { readLines } from '../io/lines';

/** One row of a GeoNames postal-code dump. */
export interface GeonamesPostalRow {
  country: string;
  /** Digits only, e.g. `97401`. */
  postalCode: string;
  /** As published, e.g. `974 01`. */
  postalCodeRaw: string;
  place: string;
  admin1Name: string;
  admin1Code: string;
  admin2Name: string;
  admin2Code: string;
  admin3Name: string;
  admin3Code: string;
  lat: number;
  lng: number;
  /** 1 estimated ... 6 centroid; null where the dump has none (PL). */
  accuracy: number | null;
  line: number;
}

export interface GeonamesError {
  line: number;
  message: string;
  raw: string;
}

/**
 * Streams a GeoNames postal-code file (tab-separated, no header). Rows with too few columns,
 * no postal code or place, or coordinates that are not numbers within range are passed to
 * `onError` with their line number instead of being yielded. Blank lines are ignored.
 */
export async function* readGeonamesPostal(
  input: string | Readable,
  onError: (e: GeonamesError) => void = () => undefined,
): AsyncGenerator<GeonamesPostalRow> {
  let line = 0;
  for await (const raw of readLines(input)) {
    line++;
    if (!raw.trim()) continue;
    const row = parseRow(raw, line);
    if (typeof row === 'string') onError({ line, message: row, raw });
    else yield row;
  }
}

function parseRow(raw: string, line: number): GeonamesPostalRow | string {
  const c = raw.split('\t').map((s) => s.trim());
  if (c.length < 11) return `${c.length} columns, expected 11 or 12`;
  const [country, postalCodeRaw, place, admin1Name, admin1Code, admin2Name, admin2Code, admin3Name, admin3Code] = c as [
    string, string, string, string, string, string, string, string, string,
  ];
  const postalCode = postalCodeRaw.replace(/\D/g, '');
  if (!postalCode) return `postal code "${postalCodeRaw}" has no digits`;
  if (!place) return 'empty place name';
  const lat = coordinate(c[9]!, 90);
  const lng = coordinate(c[10]!, 180);
  if (lat === null || lng === null || (lat === 0 && lng === 0)) return `bad coordinates "${c[9]}", "${c[10]}"`;
  const acc = c[11] ?? '';
  const accuracy = /^\d+$/.test(acc) ? Number(acc) : null;
  return {
    country, postalCode, postalCodeRaw, place,
    admin1Name, admin1Code, admin2Name, admin2Code, admin3Name, admin3Code,
    lat, lng, accuracy, line,
  };
}

function coordinate(s: string, limit: number): number | null {
  if (!/^[+-]?\d+(\.\d+)?$/.test(s)) return null;
  const v = Number(s);
  return Math.abs(v) <= limit ? v : null;
}

/** The whole file at once, with its errors: fine for the postal dumps (at most ~70k rows). */
export async function loadGeonamesPostal(input: string | Readable): Promise<{ rows: GeonamesPostalRow[]; errors: GeonamesError[] }> {
  const rows: GeonamesPostalRow[] = [];
  const errors: GeonamesError[] = [];
  for await (const row of readGeonamesPostal(input, (e) => errors.push(e))) rows.push(row);
  return { rows: chCurrentMunicipalityNumbers(rows), errors };
}

/**
 * CH: GeoNames keeps some rows of a merged municipality under its old BFS number beside the new
 * one (Horgen 133 and 295 after Hirzel joined in 2018, Elgg 217 and 294 after Hofstetten), so the
 * catalogue listed the town twice. BFS gives a merged municipality a new number, higher than the
 * old ones in the canton: within a district, every number under one municipality name becomes
 * the highest of them. Rows of other countries are left as they are.
 */
export function chCurrentMunicipalityNumbers(rows: GeonamesPostalRow[]): GeonamesPostalRow[] {
  const highest = new Map<string, string>();
  const key = (r: GeonamesPostalRow) => `${r.admin2Code}|${r.admin3Name}`;
  for (const r of rows) {
    if (r.country !== 'CH' || !/^\d{1,4}$/.test(r.admin3Code)) continue;
    const k = key(r);
    const h = highest.get(k);
    if (h === undefined || Number(r.admin3Code) > Number(h)) highest.set(k, r.admin3Code);
  }
  if (!highest.size) return rows;
  return rows.map((r) => {
    const h = r.country === 'CH' ? highest.get(key(r)) : undefined;
    return h !== undefined && h !== r.admin3Code ? { ...r, admin3Code: h } : r;
  });
}
