import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { GeonamesError, loadGeonamesPostal, readGeonamesPostal } from './geonames.reader';

const FIXTURES = resolve(__dirname, '../../fixtures/geonames');

describe('readGeonamesPostal', () => {
  it('reads the fixtures with digits-only and original postal codes', async () => {
    const sk = await loadGeonamesPostal(resolve(FIXTURES, 'SK.txt'));
    const cz = await loadGeonamesPostal(resolve(FIXTURES, 'CZ.txt'));
    expect([sk.rows.length, sk.errors.length, cz.rows.length, cz.errors.length]).toEqual([13, 0, 12, 0]);
    expect(sk.rows[8]).toEqual({
      country: 'SK', postalCode: '97401', postalCodeRaw: '974 01', place: 'Banská Bystrica',
      admin1Name: 'Banska Bystrica', admin1Code: 'BC', admin2Name: 'Okres Banská Bystrica', admin2Code: '601',
      admin3Name: '', admin3Code: '', lat: 48.736, lng: 19.146, accuracy: 4, line: 9,
    });
    expect(cz.rows.find((r) => r.place === 'Kvítkovice')!.accuracy).toBe(3);
  });

  it('reports rows with bad coordinates or columns with their line number instead of dropping them silently', async () => {
    const text = [
      'SK\t974 01\tBanská Bystrica\tBanska Bystrica\tBC\tOkres Banská Bystrica\t601\t\t\t48.736\t19.146\t4',
      'SK\t960 01\tZvolen\tBanska Bystrica\tBC\tOkres Zvolen\t611\t\t\t48,576\t19.124\t4',
      '',
      'SK\t962 31\tSliač\tBanska Bystrica\tBC\tOkres Zvolen\t611\t\t\t148.6\t19.1\t4',
      'SK\t962 31\tSliač\tBanska Bystrica',
      'SK\t962 31\tSliač\tBanska Bystrica\tBC\tOkres Zvolen\t611\t\t\t0\t0\t4',
      'PL\t00-001\tWarszawa\tMazowieckie\t78\tWarszawa\t1465\tWarszawa\t146501\t52.2297\t21.0122',
    ].join('\n');
    const errors: GeonamesError[] = [];
    const rows = [];
    for await (const r of readGeonamesPostal(Readable.from([text]), (e) => errors.push(e))) rows.push(r);
    expect(rows.map((r) => [r.place, r.postalCode, r.accuracy, r.line])).toEqual([
      ['Banská Bystrica', '97401', 4, 1],
      ['Warszawa', '00001', null, 7],
    ]);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'bad coordinates "48,576", "19.124"'],
      [4, 'bad coordinates "148.6", "19.1"'],
      [5, '4 columns, expected 11 or 12'],
      [6, 'bad coordinates "0", "0"'],
    ]);
    expect(errors[0]!.raw).toContain('Zvolen');
  });
});
