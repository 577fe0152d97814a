import { nameKey, nameSpans, nameTokens } from './name-tokens';
import { fold } from './text-fold';
import { cinKey, padCin } from './cin';

describe('business name tokens', () => {
  it('folds diacritics keeping offsets', () => {
    expect(fold('ŠKODA Líšeň')).toBe('skoda lisen');
    expect(fold('ŠKODA Líšeň').length).toBe('ŠKODA Líšeň'.length);
  });

  it.each([
    ['Firma s.r.o.', 'firma sro'],
    ['Firma s. r. o.', 'firma sro'],
    ['FIRMA spol. s r.o.', 'firma sro'],
    ['Firma, spol. s r. o.', 'firma sro'],
    ['Firma společnost s ručením omezeným', 'firma sro'],
    ['Firma a.s.', 'firma as'],
    ['Firma a. s.', 'firma as'],
    ['Firma, akciová společnost', 'firma as'],
    ['Firma v.o.s.', 'firma vos'],
    ['Obecně prospěšná o.p.s.', 'obecne prospesna ops'],
    ['Spolek z. s.', 'spolek zs'],
    ['Jan a syn', 'jan a syn'],
    ['Jan S. Pavel', 'jan s pavel'],
  ])('%s -> %s', (name, key) => {
    expect(nameKey(name)).toBe(key);
  });

  it('keeps the span of a legal form for the highlighter', () => {
    const spans = nameSpans('Tatra spol. s r.o.');
    expect(spans.map((s) => [s.token, 'Tatra spol. s r.o.'.slice(s.start, s.end)])).toEqual([
      ['tatra', 'Tatra'],
      ['sro', 'spol. s r.o.'],
    ]);
  });

  it('reads a legal form being typed at the end of a query', () => {
    expect(nameSpans('firma s. r', true).map((s) => s.token)).toEqual(['firma', 'sr']);
    expect(nameSpans('firma spol. s', true).map((s) => s.token)).toEqual(['firma', 'sro']);
    // Without the dot `spol` may be the start of `spolek`.
    expect(nameTokens('spol')).toEqual(['spol']);
  });

  it('pads and strips id numbers', () => {
    expect(padCin('177041')).toBe('00177041');
    expect(padCin('001 77 041')).toBe('00177041');
    expect(padCin('x1')).toBeNull();
    expect(padCin('123456789')).toBeNull();
    expect(cinKey('00177041')).toBe('177041');
  });
});
