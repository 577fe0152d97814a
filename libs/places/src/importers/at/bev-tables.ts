import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCsvLine } from '../io/csv';
import { readLines } from '../io/lines';
import { SourceFile, sourcesAt } from '../io/source';

/**
 * The BEV "Adresse Relationale Tabellen - Stichtagsdaten" product: a zip of `;`-separated,
 * `"`-quoted, UTF-8 (with BOM) tables, each with a header line. Columns are found by their
 * header name, so the older layout (without HNR_ADR_ZUSAMMEN) reads the same.
 */
export const BEV_TABLES = {
  ADRESSE: ['ADRCD', 'GKZ', 'OKZ', 'PLZ', 'SKZ', 'HAUSNRZAHL1', 'HAUSNRBUCHSTABE1', 'HAUSNRVERBINDUNG1', 'HAUSNRZAHL2', 'HAUSNRBUCHSTABE2', 'RW', 'HW', 'EPSG'],
  GEBAEUDE: ['ADRCD', 'SUBCD', 'HAUSNRVERBINDUNG2', 'HAUSNRZAHL3', 'HAUSNRBUCHSTABE3', 'HAUSNRVERBINDUNG3', 'HAUSNRZAHL4', 'HAUSNRBUCHSTABE4', 'RW', 'HW', 'EPSG'],
  STRASSE: ['SKZ', 'STRASSENNAME', 'GKZ'],
  GEMEINDE: ['GKZ', 'GEMEINDENAME'],
  ORTSCHAFT: ['GKZ', 'OKZ', 'ORTSNAME'],
} as const;

export type BevTableName = keyof typeof BEV_TABLES;

export interface BevRow {
  fields: string[];
  /** 1-based line of the record in its table. */
  line: number;
  source: string;
}

/** Column name -> position, from a header; throws naming the table and the missing column. */
export type ColumnIndex = Record<string, number>;

export function columnIndex(table: string, header: string[], required: readonly string[]): ColumnIndex {
  const ix: ColumnIndex = {};
  header.forEach((h, i) => (ix[h.trim().toUpperCase()] = i));
  const missing = required.filter((c) => ix[c] === undefined);
  if (missing.length) throw new Error(`${table}: column ${missing.join(', ')} missing from the header (${header.join(';')})`);
  return ix;
}

/**
 * One line's fields. Every BEV value is quoted and none holds `;` or `"` in practice, so the
 * common line is split and unquoted directly (the char-by-char parser would cost most of a
 * 2.5 M row import). A piece with a quote anywhere but at its two ends (a doubled quote, a
 * quoted `;` cut in two) sends the line through the full RFC 4180 parser.
 */
export function bevFields(line: string): string[] {
  const parts = line.split(';');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const q = p.indexOf('"');
    if (q === -1) continue;
    if (q !== 0 || p.length < 2 || p.indexOf('"', 1) !== p.length - 1) return parseCsvLine(line, ';');
    parts[i] = p.slice(1, -1);
  }
  return parts;
}

function quotesOpen(text: string): boolean {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n++;
  return n % 2 === 1;
}

/** Records of one table source with the header's column index; a quoted value may span lines. */
export async function* bevRecords(source: SourceFile, table: BevTableName): AsyncGenerator<{ ix: ColumnIndex; row: BevRow }> {
  let ix: ColumnIndex | null = null;
  let lineNo = 0;
  let pending: string | null = null;
  let start = 0;
  for await (const line of readLines(source)) {
    lineNo++;
    const text: string = pending === null ? line : `${pending}\n${line}`;
    if (pending === null) start = lineNo;
    if (quotesOpen(text)) {
      pending = text;
      continue;
    }
    pending = null;
    if (!ix) {
      ix = columnIndex(`${source.name}`, bevFields(text), BEV_TABLES[table]);
      continue;
    }
    if (text === '') continue;
    yield { ix, row: { fields: bevFields(text), line: start, source: source.name } };
  }
  if (pending !== null) throw new Error(`${source.name} line ${start}: quoted value is not closed at the end of the file`);
}

/**
 * The sources of one table at a path: the matching member of a zip or folder (at any depth
 * of the zip, e.g. `Adresse_Relationale_Tabellen/ADRESSE.csv`), or the path itself when it is
 * that table's file. A source without the table yields nothing.
 */
export async function* tableSources(path: string, table: BevTableName): AsyncGenerator<SourceFile> {
  const pattern = new RegExp(`(^|/)${table}\\.csv$`, 'i');
  const isDir = (await stat(path)).isDirectory();
  if (!isDir && !/\.zip$/i.test(path)) {
    if (pattern.test(basename(path))) yield* sourcesAt(path);
    return;
  }
  yield* sourcesAt(path, pattern);
}
