import { parseQuery, postalDigits, QueryToken, wholeWords } from './query-parser';

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

  it('reads digits after the house number and a comma as the postal code, also while it is being typed', () => {
    expect(brief(parseQuery('Alšova 513, 2').tokens)).toEqual(['word:alsova', 'number:513', 'postal:2*']);
    expect(brief(parseQuery('Alšova 513, 277 ').tokens)).toEqual(['word:alsova', 'number:513', 'postal:277*']);
    expect(brief(parseQuery('Alšova 513, 277 1').tokens)).toEqual(['word:alsova', 'number:513', 'postal:2771*']);
    expect(brief(parseQuery('Alšova 513/2, 27').tokens)).toEqual(['word:alsova', 'number:513(cp)', 'number:2(co)', 'postal:27*']);
    expect(brief(parseQuery('Podvihov ev. 59, 7').tokens)).toEqual(['word:podvihov', 'number:59(ce)', 'postal:7*']);
    // A four-digit code is whole (AT, CH, LI).
    expect(brief(parseQuery('Stephansplatz 3, 1010 Wien').tokens)).toEqual(['word:stephansplatz', 'number:3', 'postal:1010', 'word:wien*']);
    // Without the comma: three digits ending the text, or `277 1`; after a word, numbers stay numbers.
    expect(brief(parseQuery('Alšova 513 277 ').tokens)).toEqual(['word:alsova', 'number:513', 'postal:277*']);
    expect(brief(parseQuery('Alšova 513 277 1').tokens)).toEqual(['word:alsova', 'number:513', 'postal:2771*']);
    expect(brief(parseQuery('Praha 9, Vinohradská 12').tokens)).toEqual(['word:praha', 'number:9', 'word:vinohradska', 'number:12*']);
    // After a name and a comma (a place without a house number), the code being typed.
    expect(brief(parseQuery('Sobětuchy, 537 ').tokens)).toEqual(['word:sobetuchy', 'postal:537*']);
    expect(brief(parseQuery('Sobětuchy, 537 0').tokens)).toEqual(['word:sobetuchy', 'postal:5370*']);
    expect(brief(parseQuery('Sobětuchy, 537 01').tokens)).toEqual(['word:sobetuchy', 'postal:53701']);
    expect(brief(parseQuery('Sobětuchy 537 0').tokens)).toEqual(['word:sobetuchy', 'number:537', 'postal:0*']);
  });

  it('reads one or two digits being typed after the house number as the start of the postal code, the second number as the other reading', () => {
    const read = (q: string) => {
      const p = parseQuery(q);
      return [brief(p.tokens), p.alternative ? brief(p.alternative) : null];
    };
    expect(read('Jesenická 3 78')).toEqual([['word:jesenicka', 'number:3', 'postal:78*'], ['word:jesenicka', 'number:3', 'number:78*']]);
    expect(read('Hlavní 123 4')).toEqual([['word:hlavni', 'number:123', 'postal:4*'], ['word:hlavni', 'number:123', 'number:4*']]);
    // `208 37` after a street: the whole code 208 37, or 208 and the code's start; `208 3`: 208 and the code's first digit, or two numbers.
    expect(read('Alšova 208 37')).toEqual([['word:alsova', 'postal:20837'], ['word:alsova', 'number:208', 'postal:37*']]);
    expect(read('Alšova 208 3')).toEqual([['word:alsova', 'number:208', 'postal:3*'], ['word:alsova', 'number:208', 'number:3*']]);
    // Typed no further (a space or comma after them), written as a range, staircase and door, or sub-number, or three digits: one reading.
    for (const q of ['Jesenická 3 78 ', 'Alšova 208 37 ', 'Jesenická 1-3', 'Hauptstraße 12/3/5', 'Hauptstraße 31.1', 'Alšova 513 277', '74741']) expect(read(q)[1]).toBeNull();
    expect(read('Jesenická 1-3')[0]).toEqual(['word:jesenicka', 'number:1', 'number:3*']);
  });

  it('drops a c. ev. mark typed without its number yet; alone it is a word', () => {
    expect(brief(parseQuery('Dyjská ev').tokens)).toEqual(['word:dyjska*']);
    expect(brief(parseQuery('Dyjská č. ev. ').tokens)).toEqual(['word:dyjska']);
    // Our own answers write `Vlkava č. ev. 118`: each keystroke of the mark.
    for (const typed of ['Vlkava č.', 'Vlkava č. ', 'Vlkava č. e', 'Vlkava č.ev', 'Vlkava č. p.']) expect(brief(parseQuery(typed).tokens).map((t) => t.replace('*', ''))).toEqual(['word:vlkava']);
    expect(brief(parseQuery('Ev').tokens)).toEqual(['word:ev*']);
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

  it('folds ß to ss and keeps the typed form', () => {
    const [t] = parseQuery('Große ').tokens;
    expect(t).toMatchObject({ kind: 'word', folded: 'grosse', lower: 'große', prefix: false });
    expect(brief(parseQuery('Straße 1, Łódź').tokens)).toEqual(['word:strasse', 'number:1', 'word:lodz*']);
  });

  it('reads str., strasse and straße as one word, also ending a compound', () => {
    expect(brief(parseQuery('Hauptstr. 12').tokens)).toEqual(['word:hauptstrasse', 'number:12*']);
    expect(brief(parseQuery('Bahnhofstr 1').tokens)).toEqual(['word:bahnhofstrasse', 'number:1*']);
    expect(brief(parseQuery('Hauptstraße 12 ').tokens)).toEqual(['word:hauptstrasse', 'number:12']);
    expect(brief(parseQuery('Wiener Str. 5 ').tokens)).toEqual(['word:wiener', 'word:strasse', 'number:5']);
    // Being typed: a prefix as it is (`hauptstr` already starts hauptstrasse).
    expect(brief(parseQuery('Hauptstr').tokens)).toEqual(['word:hauptstr*']);
    expect(brief(parseQuery('Schulg. 4 Stephanspl. 1 ').tokens)).toEqual(['word:schulgasse', 'number:4', 'word:stephansplatz', 'number:1']);
  });

  it('reads the Polish prefixes: ul. dropped, al. and pl. as prefixes, os. as osiedle, only with their dot where they are words too', () => {
    expect(brief(parseQuery('ul. Marszałkowska 12/3 ').tokens)).toEqual(['word:marszalkowska', 'number:12(cp)', 'number:3(co)']);
    expect(brief(parseQuery('al. Jana').tokens)).toEqual(['word:alej*', 'word:jana*']);
    expect(brief(parseQuery('pl. Grunwaldzki ').tokens)).toEqual(['word:pla*', 'word:grunwaldzki']);
    expect(brief(parseQuery('os. Tysiąclecia ').tokens)).toEqual(['word:osiedle', 'word:tysiaclecia']);
    expect(brief(parseQuery('św. Marcina ').tokens)).toEqual(['word:sw*', 'word:marcina']);
    // Italian `al` and an undotted `os` are words.
    expect(brief(parseQuery('Via al Forte ').tokens)).toEqual(['word:via', 'word:al', 'word:forte']);
    expect(brief(parseQuery('os Tysiąclecia ').tokens)).toEqual(['word:os', 'word:tysiaclecia']);
  });

  it('reads Polish postal codes with the dash, and one being typed', () => {
    expect(brief(parseQuery('00-950 Warszawa').tokens)).toEqual(['postal:00950', 'word:warszawa*']);
    expect(brief(parseQuery('Warszawa 00-9').tokens)).toEqual(['word:warszawa', 'postal:009*']);
    expect(brief(parseQuery('Warszawa 00950').tokens)).toEqual(['word:warszawa', 'postal:00950']);
    // A number range inside the text stays two numbers.
    expect(brief(parseQuery('Polna 10-12 Zalesie').tokens)).toEqual(['word:polna', 'number:10', 'number:12', 'word:zalesie*']);
  });

  it('reads four-digit numbers as numbers (house number or AT/CH/LI postal code) and AT Stiege/Tür numbers', () => {
    expect(brief(parseQuery('8001 Zürich').tokens)).toEqual(['number:8001', 'word:zurich*']);
    expect(brief(parseQuery('Hauptstraße 12/3/5').tokens)).toEqual(['word:hauptstrasse', 'number:12(cp)', 'number:3(co)', 'number:5*']);
  });

  it('drops repeated tokens and caps their number', () => {
    expect(brief(parseQuery('Opava Opava ').tokens)).toEqual(['word:opava']);
    expect(parseQuery('a b c d e f g h i j k l m n o p').tokens.length).toBe(12);
    expect(parseQuery('  , . / ').tokens).toEqual([]);
  });
});

describe('postalDigits', () => {
  it('accepts whole and partial codes with a space or dash', () => {
    expect(['746', '74601', '746 01', '05-3', '00-950', '8001', 'Opava'].map(postalDigits)).toEqual(['746', '74601', '74601', '053', '00950', '8001', null]);
  });
});

describe('wholeWords', () => {
  it('gives the whole words of abbreviations and German street compounds, the same on both sides', () => {
    expect(wholeWords('nam', true)).toEqual(['namesti']);
    expect(wholeWords('nam', false)).toEqual([]);
    expect(wholeWords('al', true)).toEqual(['aleja', 'aleje']);
    expect(wholeWords('str', false)).toEqual(['strasse']);
    expect(wholeWords('hauptstr', true)).toEqual(['hauptstrasse']);
    expect(wholeWords('schulg', true)).toEqual(['schulgasse']);
    expect(wholeWords('schulg', false)).toEqual([]);
    expect(wholeWords('karlspl', true)).toEqual(['karlsplatz']);
    // A title, not a street word.
    expect(wholeWords('ing', true)).toEqual([]);
  });
});
