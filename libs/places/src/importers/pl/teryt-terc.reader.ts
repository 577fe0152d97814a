import { placeId } from '../../domain/place.doc';
import { csvObjects } from '../io/csv';
import { readLines } from '../io/lines';
import { SourceFile } from '../io/source';

/** Which members of a zip or folder are the TERYT TERC table (`TERC_Urzedowy_2024-01-01.csv`). */
export const TERC_ENTRY = /(^|\/)TERC[^/]*\.csv$/i;

const HEADER = ['WOJ', 'POW', 'GMI', 'RODZ', 'NAZWA', 'NAZWA_DOD'];

/**
 * Names of voivodeships, powiats and gminas by place_id from GUS's TERC table (`;`, UTF-8,
 * header `WOJ;POW;GMI;RODZ;NAZWA;NAZWA_DOD;STAN_NA`). The 2021 PRG files carry TERYT codes
 * only, so without a catalogue this is where their names come from. A powiat is written
 * `powiat piaseczyński`, a city with powiat rights by its own name (`Warszawa`); the parts of
 * an urban-rural gmina (types 4, 5) share the gmina's id and name (type 3).
 */
export async function readTercNames(file: SourceFile, onError: (message: string) => void): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for await (const { row, line } of csvObjects(readLines(file), { delimiter: ';' })) {
    if (HEADER.some((h) => !(h in row))) {
      onError(`${file.name}: not a TERC table (header must have ${HEADER.join(';')})`);
      return names;
    }
    const [woj, pow, gmi] = [row['WOJ']!.trim(), row['POW']!.trim(), row['GMI']!.trim()];
    const name = row['NAZWA']!.trim();
    const kind = row['NAZWA_DOD']!.trim().toLowerCase();
    if (!/^\d{2}$/.test(woj) || !name || (pow && !/^\d{2}$/.test(pow)) || (gmi && !/^\d{2}$/.test(gmi))) {
      onError(`${file.name} line ${line}: not a TERC unit (WOJ "${woj}", POW "${pow}", GMI "${gmi}", NAZWA "${name}")`);
      continue;
    }
    if (!pow) names.set(placeId('PL', 'region', woj), name.toLocaleLowerCase('pl'));
    else if (!gmi) names.set(placeId('PL', 'county', woj + pow), kind.startsWith('powiat') ? `powiat ${name}` : name);
    else {
      const id = placeId('PL', 'municipality', woj + pow + gmi);
      // A gmina's own row (types 1, 2, 3) names it; the town and rural parts (4, 5) only when nothing else has.
      if (!names.has(id) || !['4', '5', '8', '9'].includes(row['RODZ']!.trim())) names.set(id, name);
    }
  }
  return names;
}
