import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import * as iconv from 'iconv-lite';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { parseCsvLine } from '../io/csv';
import { Catalogue } from '../catalogue.types';
import { CzCatalogueRow, pscListDialect, readCzCatalogueCsv, RowError } from './cz-catalogue-csv.reader';
import { buildCzCatalogue } from './cz-catalogue.builder';

const FIXTURE = resolve(__dirname, '../../fixtures/cz/psc-list.csv');
const HEADER = 'kodcobce,nazcobce,psc,kodobce,nazobce,kodokresu,nazokresu,kodkraj,nazevkraj,kodmomc,nazmomc,kodpobvod,nazpobvod';

async function rowsOf(input: string | Readable, errors: RowError[] = []): Promise<CzCatalogueRow[]> {
  const out: CzCatalogueRow[] = [];
  for await (const r of readCzCatalogueCsv(input, (e) => errors.push(e))) out.push(r);
  return out;
}

describe('readCzCatalogueCsv', () => {
  it('reads the fixture, quoted fields included', async () => {
    const rows = await rowsOf(FIXTURE);
    expect(rows).toHaveLength(14);
    expect(rows[2]).toEqual({
      partCode: '490229', partName: 'Vinohrady', postalCode: '12000',
      municipalityCode: '554782', municipalityName: 'Praha',
      countyCode: '3100', countyName: 'Hlavní město Praha', regionCode: '19', regionName: 'Hlavní město Praha',
      cityDistrictCode: '500089', cityDistrictName: 'Praha 2', pragueDistrictCode: '21', pragueDistrictName: 'Praha 2',
      line: 4,
    });
    expect(rows[3]!.cityDistrictCode).toBeNull();
  });

  it('reports bad rows with their line and goes on', async () => {
    const csv = [
      HEADER,
      '1,"Dolní, Horní",76001,585068,Zlín,3705,Zlín,141,Zlínský,,,,',
      '2,Nowhere,7600,585068,Zlín,3705,Zlín,141,Zlínský,,,,',
      '3,Short,76001,585068',
      '4,NoRegion,76001,585068,Zlín,3705,Zlín,,Zlínský,,,,',
      '5,"Quoted ""x""",763 02,585068,Zlín,3705,Zlín,141,Zlínský,,,,',
    ].join('\r\n');
    const errors: RowError[] = [];
    const rows = await rowsOf(Readable.from([csv]), errors);
    expect(rows.map((r) => [r.partName, r.postalCode])).toEqual([['Dolní, Horní', '76001'], ['Quoted "x"', '76302']]);
    expect(errors).toEqual([
      { line: 3, message: 'PSC "7600" is not five digits' },
      { line: 4, message: '4 fields where the header has 13' },
      { line: 5, message: 'empty kodkraj' },
    ]);
  });

  it("reads Česká pošta's own file as published: zv_cobce_psc.zip holding zv_cobce_psc.csv, ';'-separated, windows-1250", async () => {
    const dir = tempDir('psc-list-');
    try {
      // The fixture's rows written as Česká pošta writes the file (a field with ';' in it would be quoted).
      const official = readFileSync(FIXTURE, 'utf8')
        .trim()
        .split('\n')
        .map((l) => parseCsvLine(l).map((f) => (f.includes(';') ? `"${f}"` : f)).join(';'))
        .join('\r\n');
      const csv = join(dir.path, 'zv_cobce_psc.csv');
      writeFileSync(csv, iconv.encode(official + '\r\n', 'windows-1250'));
      const zip = join(dir.path, 'zv_cobce_psc.zip');
      writeTestZip(zip, [{ name: 'zv_cobce_psc.csv', data: iconv.encode(official + '\r\n', 'windows-1250'), deflate: true }]);
      const expected = await rowsOf(FIXTURE);
      expect(expected.some((r) => /[ěščřžýáíéůú]/i.test(r.partName + r.municipalityName + r.countyName))).toBe(true);
      expect(await rowsOf(csv)).toEqual(expected);
      expect(await rowsOf(zip)).toEqual(expected);
    } finally {
      dir.remove();
    }
  });

  it('tells the dialect from the first bytes, a UTF-8 letter cut at the end of the sample included', () => {
    const utf8 = Buffer.from('kodcobce,nazcobce,psc\n1,Žďár,59101\n');
    expect(pscListDialect(utf8)).toEqual({ delimiter: ',', encoding: 'utf-8' });
    expect(pscListDialect(utf8.subarray(0, utf8.indexOf('ď') + 1))).toEqual({ delimiter: ',', encoding: 'utf-8' });
    expect(pscListDialect(iconv.encode('kodcobce;nazcobce;psc\r\n1;Žďár;59101\r\n', 'windows-1250'))).toEqual({ delimiter: ';', encoding: 'windows-1250' });
  });

  it('refuses a file that is not a PSC list', async () => {
    await expect(rowsOf(Readable.from(['a,b\n1,2\n']))).rejects.toThrow('header lacks kodcobce');
  });
});

describe('buildCzCatalogue', () => {
  let cat: Catalogue;
  beforeAll(async () => {
    cat = await buildCzCatalogue(readCzCatalogueCsv(FIXTURE));
  });

  it('builds regions, counties and municipalities keyed by RUIAN codes', () => {
    expect(cat.regions.map((r) => [r.place_id, r.name])).toEqual([
      ['cz_r124', 'Olomoucký'],
      ['cz_r141', 'Zlínský'],
      ['cz_r19', 'Hlavní město Praha'],
    ]);
    expect(cat.counties.map((c) => [c.place_id, c.name, c.region_id])).toEqual([
      ['cz_c3100', 'Hlavní město Praha', 'cz_r19'],
      ['cz_c3705', 'Zlín', 'cz_r141'],
      ['cz_c3809', 'Šumperk', 'cz_r124'],
    ]);
    expect(cat.municipalities.map((m) => [m.place_id, m.name, m.county, m.region])).toEqual([
      ['cz_m500011', 'Želechovice nad Dřevnicí', 'Zlín', 'Zlínský'],
      ['cz_m500020', 'Petrov nad Desnou', 'Šumperk', 'Olomoucký'],
      ['cz_m523704', 'Šumperk', 'Šumperk', 'Olomoucký'],
      ['cz_m525588', 'Bludov', 'Šumperk', 'Olomoucký'],
      ['cz_m554782', 'Praha', 'Hlavní město Praha', 'Hlavní město Praha'],
      ['cz_m585068', 'Zlín', 'Zlín', 'Zlínský'],
      ['cz_m585599', 'Otrokovice', 'Zlín', 'Zlínský'],
    ]);
    expect(cat.municipalities[0]).toMatchObject({ object: 'municipality', country: 'CZ', county_id: 'cz_c3705', region_id: 'cz_r141' });
    expect(cat.errors).toEqual([]);
  });

  it('collects each municipality’s postal codes and parts', () => {
    expect([...cat.postalCodes.get('cz_m500020')!].sort()).toEqual(['78814', '78816']);
    expect([...cat.parts.get('cz_m500020')!].sort()).toEqual(['Petrov nad Desnou', 'Terezín']);
    expect([...cat.postalCodes.get('cz_m585068')!].sort()).toEqual(['76001', '76005', '76302']);
    expect([...cat.parts.get('cz_m554782')!].sort()).toEqual(['Josefov', 'Karlín', 'Vinohrady']);
  });

  it('keeps the first reading of a code that comes back with another name', async () => {
    const csv = [HEADER, '1,A,76001,585068,Zlín,3705,Zlín,141,Zlínský,,,,', '2,B,76002,585068,Zlin,3705,Zlín,141,Zlínský,,,,'].join('\n');
    const c = await buildCzCatalogue(readCzCatalogueCsv(Readable.from([csv])));
    expect(c.municipalities.map((m) => m.name)).toEqual(['Zlín']);
    expect(c.errors).toEqual(['line 3: municipality 585068 reads "Zlin" in cz_c3705, earlier "Zlín" in cz_c3705; kept the earlier']);
  });
});
