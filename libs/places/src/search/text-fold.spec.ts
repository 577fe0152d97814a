import { fold, foldedPrefixLength, foldSameLength, umlautContraction, umlautTransliteration, wordSpans } from './text-fold';

describe('fold', () => {
  it('writes the German ß as ss', () => {
    expect(fold('Straße')).toBe('strasse');
    expect(fold('GROẞE')).toBe('grosse');
  });

  it('folds the Polish letters', () => {
    expect(fold('ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ')).toBe('acelnoszz acelnoszz');
    expect(fold('Księży Młyn, Łódź')).toBe('ksiezy mlyn, lodz');
  });

  it('folds French and Italian accents and the umlauts to their base letter', () => {
    expect(fold('Genève Città Neuchâtel Délémont Œuvre')).toBe('geneve citta neuchatel delemont oeuvre');
    expect(fold('Müller Bärengasse Schönbrunn')).toBe('muller barengasse schonbrunn');
  });

  it('keeps Czech and Slovak folding as it was', () => {
    expect(fold('Rančířov Lihovarská Mäsiarska Ďumbierska')).toBe('rancirov lihovarska masiarska dumbierska');
  });
});

describe('foldSameLength', () => {
  it('keeps offsets: ß stays one character', () => {
    const text = 'Hauptstraße 12, Łódź';
    expect(foldSameLength(text)).toBe('hauptstraße 12, lodz');
    expect(foldSameLength(text).length).toBe(text.length);
  });
});

describe('foldedPrefixLength', () => {
  it('maps folded letters back onto the written word', () => {
    expect(foldedPrefixLength('Straße', 5)).toBe(5);
    expect(foldedPrefixLength('Straße', 6)).toBe(5);
    expect(foldedPrefixLength('Straße', 7)).toBe(6);
    expect(foldedPrefixLength('Müller', 3, true)).toBe(2);
    expect(foldedPrefixLength('Müller', 4, true)).toBe(3);
  });
});

describe('umlauts', () => {
  it('transliterates ä, ö, ü to ae, oe, ue', () => {
    expect(umlautTransliteration('müllerstraße')).toBe('muellerstrasse');
    expect(umlautTransliteration('äulestr')).toBe('aeulestr');
    expect(umlautTransliteration('hauptstraße')).toBeNull();
  });

  it('contracts ae, oe, ue after a consonant only (Mueller, not Bauer)', () => {
    expect(umlautContraction('muehlebachstrasse')).toBe('muhlebachstrasse');
    expect(umlautContraction('goethe')).toBe('gothe');
    expect(umlautContraction('bauer')).toBeNull();
    expect(umlautContraction('hauptstrasse')).toBeNull();
  });
});

describe('wordSpans', () => {
  it('folds each word and keeps the written offsets', () => {
    expect(wordSpans('Große Gasse 1')).toEqual([
      { lower: 'große', folded: 'grosse', start: 0, end: 5 },
      { lower: 'gasse', folded: 'gasse', start: 6, end: 11 },
      { lower: '1', folded: '1', start: 12, end: 13 },
    ]);
  });
});
