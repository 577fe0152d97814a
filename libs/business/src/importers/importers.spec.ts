import { join } from 'node:path';
import { projectRoot } from '@lookup/shared/config';
import { readFileSync } from 'node:fs';
import { BusinessDoc } from '../domain/business.doc';
import { parseTextAddress, splitStreet } from './address-text';
import { aresSubjects, aresToDoc } from './ares-json.reader';
import { readResCsvFile, resRowToDoc } from './res-csv.reader';
import { current, rpoEntities, rpoToDoc } from './rpo-json.reader';
import { csvRows } from './io/text-lines';

const FIX = join(projectRoot(), 'libs/business/src/fixtures');

async function all<T>(it: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of it) out.push(...b);
  return out;
}

describe('RES res_data.csv', () => {
  it('reads the sample: quoted names, skipped nameless rows, structured and text addresses', async () => {
    let skipped = 0;
    const docs = await all(readResCsvFile(join(FIX, 'cz/res_data.csv'), { onSkip: () => skipped++ }));
    expect(docs.length).toBe(8);
    expect(skipped).toBe(1);
    const tatra = docs.find((d) => d.cin === '25596641')!;
    expect(tatra).toMatchObject({ business_id: 'cz_25596641', street: 'Lihovarská', street_number: '1060', building_number: '12', postal_code: '71600', municipality: 'Ostrava', legal_form: 'Společnost s ručením omezeným', segment: 'Velkoobchod a maloobchod; opravy a údržba motorových vozidel', organization_size: '50 - 99 zaměstnanců' });
    expect(docs.find((d) => d.cin === '07654321')).toMatchObject({ name: 'Baťa & syn, s.r.o.', street: 'Chata', street_number: '14', municipality: 'Ostrava', postal_code: '71600' });
    expect(docs.find((d) => d.cin === '45193070')).toMatchObject({ terminated_on: '2015-08-31', organization_size: 'Neuvedeno' });
  });

  it('takes the address from the RUIAN lookup when it knows KODADM', () => {
    const lookup = { get: (k: number) => (k === 42 ? { street: 'Ruianova', street_number: '1', building_number: '2a', postal_code: '74601', municipality: 'Opava', district: 'Předměstí' } : null), close: () => undefined };
    const doc = resRowToDoc({ ICO: '1', FIRMA: 'X s.r.o.', KODADM: '42', ULICE_TEXT: 'Jiná', OBEC_TEXT: 'Jinde', CDOM: '5' }, lookup)!;
    expect([doc.street, doc.building_number, doc.cin]).toEqual(['Ruianova', '2a', '00000001']);
    expect(resRowToDoc({ ICO: '1', FIRMA: 'X', KODADM: '43', ULICE_TEXT: 'Jiná', OBEC_TEXT: 'Jinde', CDOM: '5' }, lookup)!.street).toBe('Jiná');
  });

  it('refuses a file that is not RES', async () => {
    async function* lines() {
      yield 'A,B,C';
      yield '1,2,3';
    }
    const { readResCsv } = await import('./res-csv.reader');
    await expect(all(readResCsv(lines()))).rejects.toThrow(/missing column/);
  });

  it('parses quoted CSV fields spanning lines', async () => {
    async function* lines() {
      yield 'a,"b ""q"", c",d';
      yield '"multi';
      yield 'line",x';
    }
    const rows: string[][] = [];
    for await (const r of csvRows(lines())) rows.push(r);
    expect(rows).toEqual([['a', 'b "q", c', 'd'], ['multi\nline', 'x']]);
  });
});

describe('text addresses', () => {
  it.each([
    ['Lihovarská 1060/12, Radvanice, 71600 Ostrava', { street: 'Lihovarská', street_number: '1060', building_number: '12', district: 'Radvanice', postal_code: '71600', municipality: 'Ostrava' }],
    ['Opava 59, 74601 Opava', { street: '', street_number: '59', district: 'Opava', municipality: 'Opava' }],
    ['Hlavní č.ev. 7, 25301 Hostivice', { street: 'Hlavní', street_number: 'č. ev. 7', postal_code: '25301' }],
  ])('%s', (text, expected) => {
    expect(parseTextAddress(text)).toMatchObject(expected);
  });

  it('splits street names with numbers in them only at the house number', () => {
    expect(splitStreet('Tř. 17. listopadu 1790/5a')).toEqual({ street: 'Tř. 17. listopadu', street_number: '1790', building_number: '5a' });
  });
});

describe('ARES v3 ekonomicke-subjekty', () => {
  const json = JSON.parse(readFileSync(join(FIX, 'cz/ares-ekonomicke-subjekty.json'), 'utf8'));

  it('reads a search answer and single subjects', () => {
    expect(aresSubjects(json).map((s) => s.ico)).toEqual(['00177041', '27082440']);
    expect(aresSubjects(json.ekonomickeSubjekty[0]).length).toBe(1);
    expect(() => aresSubjects({ foo: 1 })).toThrow(/ARES/);
  });

  // Škoda's two codes fall in two sectors and the answer marks neither: no sector (the RES answer has it).
  it('maps the seat, tax number and VAT status; keeps what ARES lacks from the stored entity', () => {
    const previous = { organization_size: '5000 - 9999 zaměstnanců' } as BusinessDoc;
    const [skoda, alza] = aresSubjects(json).map((s) => aresToDoc(s, previous)!);
    expect(skoda).toMatchObject({ street: 'tř. Václava Klementa', street_number: '869', building_number: '', postal_code: '29301', district: 'Mladá Boleslav II', tin: 'CZ00177041', vatin: 'CZ00177041', organization_size: '5000 - 9999 zaměstnanců', segment: '' });
    // One code only: its sector is the main activity's.
    expect(alza.segment).toBe('Velkoobchod a maloobchod; opravy a údržba motorových vozidel');
    expect(alza).toMatchObject({ building_number: '53', tin: 'CZ27082440', vatin: null, legal_form: 'Akciová společnost' });
  });
});

describe('SK RPO JSON', () => {
  const json = JSON.parse(readFileSync(join(FIX, 'sk/rpo-entities.json'), 'utf8'));

  it('takes the current value of each history (the one without validTo)', () => {
    const docs = rpoEntities(json).map(rpoToDoc);
    expect(docs[1]).toMatchObject({ business_id: 'sk_35741216', name: 'Tatra Trade s. r. o.', street: 'Hlavná', street_number: null, building_number: '12', municipality: 'Košice - mestská časť Staré Mesto' });
    expect(docs[2]).toMatchObject({ terminated_on: '2019-12-31', street: '', street_number: '214', legal_form_code: '101' });
    expect(current([{ value: 'a', validFrom: '2000-01-01', validTo: '2001-01-01' }, { value: 'b', validFrom: '1990-01-01', validTo: '2010-01-01' }])?.value).toBe('b');
  });
});
