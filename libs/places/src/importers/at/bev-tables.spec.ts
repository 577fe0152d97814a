import { bevFields, columnIndex } from './bev-tables';
import { Occurrences } from './occurrences';

describe('BEV table lines', () => {
  it('unquotes the usual all-quoted line, empty values included', () => {
    expect(bevFields('"6100001";"90001";"";"12"')).toEqual(['6100001', '90001', '', '12']);
    expect(bevFields('6100001;90001;;12')).toEqual(['6100001', '90001', '', '12']);
  });

  it('falls back to the full parser for a quoted ; or a doubled quote', () => {
    expect(bevFields('"1";"Gasthof; Zur Post";"x"')).toEqual(['1', 'Gasthof; Zur Post', 'x']);
    expect(bevFields('"1";"Villa ""Erika""";"x"')).toEqual(['1', 'Villa "Erika"', 'x']);
  });

  it('names the table and the missing column of a header', () => {
    expect(columnIndex('ADRESSE.csv', ['ADRCD', 'gkz '], ['ADRCD', 'GKZ'])).toEqual({ ADRCD: 0, GKZ: 1 });
    expect(() => columnIndex('STRASSE.csv', ['SKZ'], ['SKZ', 'STRASSENNAME'])).toThrow('STRASSE.csv: column STRASSENNAME missing from the header (SKZ)');
  });
});

describe('Occurrences', () => {
  it('lets only the last occurrence of a key through, for dense, large and non-numeric keys', () => {
    const o = new Occurrences(1000);
    for (const k of ['7', '7', '7', '5000', 'X1', 'X1', '007']) o.add(k);
    expect([o.takeLast('7'), o.takeLast('7'), o.takeLast('7')]).toEqual([false, false, true]);
    expect(o.takeLast('5000')).toBe(true);
    expect([o.takeLast('X1'), o.takeLast('X1')]).toEqual([false, true]);
    expect(o.takeLast('007')).toBe(true);
  });
});
