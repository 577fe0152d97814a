import { ViesCountryCode } from '@lookup/contracts';
import { checkVatFormat, compactVatNumber, FORMAT_ONLY_STATES } from './vat-format';

/** Published example numbers (tax administrations, VIES FAQ, python-stdnum's documentation). */
const VALID: Array<[ViesCountryCode, string]> = [
  ['AT', 'U13585627'],
  ['BE', '0403019261'],
  ['BE', '0776091951'],
  ['BG', '175074752'],
  ['CY', '10259033P'],
  ['CZ', '25123891'],
  ['CZ', '7103192745'],
  ['CZ', '640903926'],
  ['DE', '136695976'],
  ['DK', '13585628'],
  ['EE', '100931558'],
  ['EL', '094259216'],
  ['ES', 'A13585625'],
  ['ES', '54362315K'],
  ['ES', 'X5253868R'],
  ['FI', '20774740'],
  ['FR', '40303265045'],
  ['HR', '33392005961'],
  ['HU', '12892312'],
  ['IE', '6433435F'],
  ['IE', '6433435OA'],
  ['IE', '8Z49289F'],
  ['IT', '00743110157'],
  ['LT', '119511515'],
  ['LU', '15027442'],
  ['LV', '40003521600'],
  ['MT', '11679112'],
  ['NL', '004495445B01'],
  ['PL', '8567346215'],
  ['PT', '501964843'],
  ['RO', '18547290'],
  ['SE', '123456789701'],
  ['SI', '50223054'],
  ['SK', '2022749619'],
];

describe('VAT number format and check digits', () => {
  it.each(VALID)('%s %s passes', (country, number) => {
    expect(checkVatFormat(country, number)).toEqual({ ok: true, number });
  });

  /** Where the check digit sits when it is not last: NL before `B01`, SE before `01`. */
  const CHECK_AT: Partial<Record<ViesCountryCode, number>> = { NL: 8, SE: 9 };
  it.each(VALID.filter(([c, n]) => /\d$/.test(n) || CHECK_AT[c] !== undefined))('%s %s with the check digit changed fails the checksum', (country, number) => {
    const at = CHECK_AT[country] ?? number.length - 1;
    const changed = number.slice(0, at) + String((Number(number[at]) + 1) % 10) + number.slice(at + 1);
    expect(checkVatFormat(country, changed)).toMatchObject({ ok: false, reason: 'checksum' });
  });

  it('refuses a wrong length or shape as a format error', () => {
    expect(checkVatFormat('CZ', '1234567')).toMatchObject({ ok: false, reason: 'format' });
    expect(checkVatFormat('AT', '13585627')).toMatchObject({ ok: false, reason: 'format' });
    expect(checkVatFormat('NL', '004495445C01')).toMatchObject({ ok: false, reason: 'format' });
    expect(checkVatFormat('SK', '2012749619')).toMatchObject({ ok: false, reason: 'format' });
  });

  it('strips separators and the country prefix people type, including GR for Greece', () => {
    expect(compactVatNumber('CZ', 'CZ 251 23 891')).toBe('25123891');
    expect(compactVatNumber('DE', 'de136.695.976')).toBe('136695976');
    expect(compactVatNumber('EL', 'GR094259216')).toBe('094259216');
    expect(compactVatNumber('AT', 'ATU13585627')).toBe('U13585627');
    expect(checkVatFormat('SK', 'SK 2022749619')).toEqual({ ok: true, number: '2022749619' });
  });

  it('checks digits in every member state (none is format-only)', () => {
    expect(FORMAT_ONLY_STATES).toEqual([]);
  });
});
