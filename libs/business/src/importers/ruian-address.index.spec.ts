import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import * as iconv from 'iconv-lite';
import { describeWithData, sharedData, tempDir } from '@lookup/shared/testing';
import { RuianAddressIndex } from './ruian-address.index';
import { importBusiness } from './business-import';
import { SqliteBusinessStore } from '../store/sqlite-business.store';
import { RES_COLUMNS } from './res-csv.reader';
import { writeTestZip } from '@lookup/shared/testing';

const HEADER = 'Kód ADM;Kód obce;Název obce;Kód MOMC;Název MOMC;Kód obvodu Prahy;Název obvodu Prahy;Kód části obce;Název části obce;Kód ulice;Název ulice;Typ SO;Číslo domovní;Číslo orientační;Znak čísla orientačního;PSČ;Souřadnice Y;Souřadnice X;Platí Od';

describe('RUIAN address points for the KODADM join', () => {
  const dir = tempDir('business-ruian-');
  afterAll(() => dir.remove());

  it('stages the official zip (windows-1250, one CSV per municipality) and joins RES rows to it', async () => {
    const csv = [
      HEADER,
      '21694907;535419;Mladá Boleslav;;;;;413551;Mladá Boleslav II;213951;tř. Václava Klementa;č.p.;869;;;29301;-;-;2013-12-02T00:00:00',
      '6199135;531774;Kadlín;;;;;156141;Kadlín;;;č.ev.;8;3;b;27735;718579.31;1011314.07;2013-12-02T00:00:00',
    ].join('\r\n');
    const zip = join(dir.path, '20231231_OB_ADR_csv.zip');
    writeTestZip(zip, [{ name: 'CSV/20231231_OB_535419_ADR.csv', data: iconv.encode(csv, 'windows-1250') }]);
    const index = await RuianAddressIndex.build(zip, join(dir.path, 'stage.sqlite'));
    expect(index.size()).toBe(2);
    expect(index.get(6199135)).toEqual({ street: '', street_number: 'č. ev. 8', building_number: '3b', postal_code: '27735', municipality: 'Kadlín', district: 'Kadlín' });
    index.close();

    const row: Record<string, string> = { ICO: '00177041', FIRMA: 'ŠKODA AUTO a.s.', DDATVZN: '1990-11-20', DDATZAN: '', FORMA: '121', KODADM: '21694907', TEXTADR: 'jinde 1, 11000 Praha' };
    const res = join(dir.path, 'res_data.csv');
    writeFileSync(res, `${RES_COLUMNS.join(',')}\n${RES_COLUMNS.map((c) => row[c] ?? '').join(',')}\n`);
    const store = new SqliteBusinessStore(join(dir.path, 'b.sqlite'));
    await store.init();
    await importBusiness(store, { resCsv: res, ruianZip: zip, stageDir: dir.path }, 'test');
    expect(await store.get('cz_00177041')).toMatchObject({ street: 'tř. Václava Klementa', street_number: '869', postal_code: '29301', district: 'Mladá Boleslav II' });
    await store.close();
  });
});

describeWithData([sharedData('cz/20231231_OB_ADR_csv.zip')], 'RUIAN address points from the real CUZK zip', () => {
  const dir = tempDir('business-ruian-real-');
  afterAll(() => dir.remove());

  it('reads one municipality of the real file in place', async () => {
    const index = await RuianAddressIndex.build(sharedData('cz/20231231_OB_ADR_csv.zip'), join(dir.path, 'stage.sqlite'), { entries: /_OB_531774_ADR\.csv$/ });
    expect(index.size()).toBeGreaterThan(10);
    expect(index.get(6199089)).toMatchObject({ municipality: 'Kadlín', district: 'Kadlín', street_number: '1', postal_code: '27735' });
    index.close();
  });
});
