import { SaxesParser } from 'saxes';
import { placeId } from '../../domain/place.doc';
import { csvObjects } from '../io/csv';
import { readLines } from '../io/lines';
import { SourceFile } from '../io/source';
import { walkXml } from '../io/xml';

/** Which members of a zip or folder are the TERYT TERC table (`TERC_Urzedowy_2024-01-01.csv` or `.xml`). */
export const TERC_ENTRY = /(^|\/)TERC[^/]*\.(csv|xml)$/i;

const CODES = ['WOJ', 'POW', 'GMI', 'RODZ', 'NAZWA'];

/** One TERC unit as published: column name -> value (`NAZWA_DOD`, `NAZDOD` in the older XML). */
type TercRow = Record<string, string>;

/**
 * Names of voivodeships, powiats and gminas by place_id from GUS's TERC table, in either of
 * the forms GUS publishes: CSV (`;`, UTF-8, header `WOJ;POW;GMI;RODZ;NAZWA;NAZWA_DOD;STAN_NA`)
 * or XML (`<teryt><catalog name="TERC"><row><WOJ>02</WOJ>…<NAZWA_DOD>…</row>`; files before
 * 2016 name the kind `NAZDOD`, and the oldest write `<col name="WOJ">02</col>`). The 2021 PRG
 * files carry TERYT codes only, so without a catalogue this is where their names come from.
 * A powiat is written `powiat piaseczyński`, a city with powiat rights by its own name
 * (`Warszawa`); the parts of an urban-rural gmina (types 4, 5) share the gmina's id and name
 * (type 3).
 */
export async function readTercNames(file: SourceFile, onError: (message: string) => void): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const rows = /\.xml$/i.test(file.name) ? tercXmlRows(file) : tercCsvRows(file);
  for await (const { row, line } of rows) {
    if (CODES.some((h) => !(h in row)) || !('NAZWA_DOD' in row || 'NAZDOD' in row)) {
      onError(`${file.name}: not a TERC table (each unit must have ${[...CODES, 'NAZWA_DOD'].join(', ')})`);
      return names;
    }
    addUnit(names, row, (m) => onError(`${file.name} line ${line}: ${m}`));
  }
  return names;
}

function addUnit(names: Map<string, string>, row: TercRow, onError: (message: string) => void): void {
  // The XML writes an empty code as an element holding only white space.
  const [woj, pow, gmi] = [row['WOJ']!.trim(), row['POW']!.trim(), row['GMI']!.trim()];
  const name = row['NAZWA']!.trim();
  const kind = (row['NAZWA_DOD'] ?? row['NAZDOD'] ?? '').trim().toLowerCase();
  if (!/^\d{2}$/.test(woj) || !name || (pow && !/^\d{2}$/.test(pow)) || (gmi && !/^\d{2}$/.test(gmi))) {
    onError(`not a TERC unit (WOJ "${woj}", POW "${pow}", GMI "${gmi}", NAZWA "${name}")`);
    return;
  }
  if (!pow) names.set(placeId('PL', 'region', woj), name.toLocaleLowerCase('pl'));
  else if (!gmi) names.set(placeId('PL', 'county', woj + pow), kind.startsWith('powiat') ? `powiat ${name}` : name);
  else {
    const id = placeId('PL', 'municipality', woj + pow + gmi);
    // A gmina's own row (types 1, 2, 3) names it; the town and rural parts (4, 5) only when nothing else has.
    if (!names.has(id) || !['4', '5', '8', '9'].includes(row['RODZ']!.trim())) names.set(id, name);
  }
}

async function* tercCsvRows(file: SourceFile): AsyncGenerator<{ row: TercRow; line: number }> {
  for await (const { row, line } of csvObjects(readLines(file), { delimiter: ';' })) yield { row, line };
}

interface XmlTag {
  name: string;
  attributes: Record<string, unknown>;
}

/** The `<row>` elements of a TERC XML, each as column -> text, with the line it starts on. */
function tercXmlRows(file: SourceFile): AsyncGenerator<{ row: TercRow; line: number }> {
  const parser = new SaxesParser({ position: true });
  const out: Array<{ row: TercRow; line: number }> = [];
  let row: TercRow | null = null;
  let line = 0;
  let column: string | null = null;
  let text = '';
  return walkXml(file, parser, {
    out,
    open(tag: XmlTag) {
      if (tag.name === 'row') [row, line] = [{}, parser.line];
      else if (row) [column, text] = [tag.name === 'col' ? String(tag.attributes['name'] ?? '') : tag.name, ''];
    },
    text(t: string) {
      if (column) text += t;
    },
    close(tag: XmlTag) {
      if (tag.name === 'row' && row) {
        out.push({ row, line });
        row = null;
      } else if (row && column) {
        row[column] = text;
        column = null;
      }
    },
  });
}
