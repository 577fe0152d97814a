import { formatPostalCode } from './countries';

describe('formatPostalCode: the national written form', () => {
  it.each([
    ['CZ', '76001', '760 01'],
    ['CZ', '760 01', '760 01'],
    ['CZ', ' 76001 ', '760 01'],
    ['SK', '81101', '811 01'],
    ['SK', '811-01', '811 01'],
    ['PL', '67416', '67-416'],
    ['PL', '67-416', '67-416'],
    ['PL', '67 416', '67-416'],
    ['AT', '1010', '1010'],
    ['CH', '8001', '8001'],
    ['CH', 'CH-8001', '8001'],
    ['LI', 'FL-9490', '9490'],
    ['LI', '9490', '9490'],
  ] as const)('%s %s -> %s', (country, code, out) => expect(formatPostalCode(country, code)).toBe(out));

  it('keeps what fits no pattern of its country, trimmed', () => {
    expect(formatPostalCode('CZ', ' 7460 ')).toBe('7460');
    expect(formatPostalCode('AT', '10100')).toBe('10100');
  });
});
