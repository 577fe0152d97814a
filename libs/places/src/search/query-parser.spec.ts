import { parseQuery, postalDigits, QueryToken } from './query-parser';

const brief = (tokens: QueryToken[]) => tokens.map((t) => `${t.kind}:${t.folded}${t.prefix ? '*' : ''}${t.role ? `(${t.role})` : ''}`);

describe('parseQuery', () => {
  it('folds diacritics and keeps the typed form for the exact-diacritics bonus', () => {
    const [t] = parseQuery('Žerotínova ').tokens;
    expect(t).toMatchObject({ kind: 'word', folded: 'zerotinova', lower: 'žerotínova', prefix: false });
  });

  it('makes only the word being typed a prefix', () => {
    expect(brief(parseQuery('Lihovarská 79 Opa').tokens)).toEqual(['word:lihovarska', 'number:79', 'word:opa*']);
    expect(brief(parseQuery('Lihovarská 79 Opava, ').tokens)).toEqual(['word:lihovarska', 'number:79', 'word:opava']);
  });

  it('reads every house-number form', () => {
    expect(brief(parseQuery('Lihovarská 79/22a ').tokens)).toEqual(['word:lihovarska', 'number:79(cp)', 'number:22a(co)']);
    expect(brief(parseQuery('Lihovarská 79 / 22a').tokens)).toEqual(['word:lihovarska', 'number:79(cp)', 'number:22a*(co)']);
    expect(brief(parseQuery('Lihovarská 79/').tokens)).toEqual(['word:lihovarska', 'number:79(cp)']);
    expect(brief(parseQuery('Podvihov č. ev. 59').tokens)).toEqual(['word:podvihov', 'number:59*(ce)']);
    expect(brief(parseQuery('Podvihov c.ev.59 ').tokens)).toEqual(['word:podvihov', 'number:59(ce)']);
    expect(brief(parseQuery('Dyjská ev. 783, ').tokens)).toEqual(['word:dyjska', 'number:783(ce)']);
    expect(brief(parseQuery('Terezín č.p. 12 ').tokens)).toEqual(['word:terezin', 'number:12(cp)']);
    expect(brief(parseQuery('Hlavní 22a ').tokens)).toEqual(['word:hlavni', 'number:22a']);
  });

  it('reads postal codes with and without the space', () => {
    expect(brief(parseQuery('Cihelní 265, 747 41 Branka').tokens)).toEqual(['word:cihelni', 'number:265', 'postal:74741', 'word:branka*']);
    expect(brief(parseQuery('74741 ').tokens)).toEqual(['postal:74741']);
    expect(brief(parseQuery('74741').tokens)).toEqual(['postal:74741']);
  });

  it('expands nám., tř. and nábř., keeps sv. as a prefix and drops ul.', () => {
    expect(brief(parseQuery('Horní nám. 69 ').tokens)).toEqual(['word:horni', 'word:namesti', 'number:69']);
    expect(brief(parseQuery('tř. Svobody ').tokens)).toEqual(['word:trida', 'word:svobody']);
    expect(brief(parseQuery('nábř. Bedřicha Smetany ').tokens)).toEqual(['word:nabrezi', 'word:bedricha', 'word:smetany']);
    expect(brief(parseQuery('ul. Lidická').tokens)).toEqual(['word:lidicka*']);
    expect(brief(parseQuery('nám Míru').tokens)).toEqual(['word:namesti', 'word:miru*']);
    expect(brief(parseQuery('sv. Čecha ').tokens)).toEqual(['word:sv*', 'word:cecha']);
    // Still typing `nam`: a plain prefix (náměstí, Náměšť, ...).
    expect(brief(parseQuery('Horní nam').tokens)).toEqual(['word:horni', 'word:nam*']);
  });

  it('drops repeated tokens and caps their number', () => {
    expect(brief(parseQuery('Opava Opava ').tokens)).toEqual(['word:opava']);
    expect(parseQuery('a b c d e f g h i j k l m n o p').tokens.length).toBe(12);
    expect(parseQuery('  , . / ').tokens).toEqual([]);
  });
});

describe('postalDigits', () => {
  it('accepts whole and partial codes with a space or dash', () => {
    expect(['746', '74601', '746 01', '05-3', 'Opava'].map(postalDigits)).toEqual(['746', '74601', '74601', '053', null]);
  });
});
