import { highlight } from './highlight';
import { parseQuery } from './query-parser';

const hl = (text: string, query: string) => highlight(text, parseQuery(query).tokens);

describe('highlight', () => {
  it('wraps whole matched words and the typed part of a prefix', () => {
    expect(hl('Lihovarská 79/22a, 746 01 Opava', 'lihovarska 79/2')).toBe('<em>Lihovarská</em> <em>79</em>/<em>2</em>2a, 746 01 Opava');
    expect(hl('Lihovarská 79/22a, 746 01 Opava', 'Opa')).toBe('Lihovarská 79/22a, 746 01 <em>Opa</em>va');
  });

  it('marks the postal code across its space, whole or partial', () => {
    expect(hl('Cihelní 265, 747 41 Branka u Opavy', '74741 ')).toBe('Cihelní 265, <em>747 41</em> Branka u Opavy');
    expect(hl('747 41', '7474')).toBe('<em>747 4</em>1');
    expect(hl('Cihelní 265, 747 41 Branka u Opavy', '747')).toBe('Cihelní 265, <em>747</em> 41 Branka u Opavy');
  });

  it('marks typo matches as whole words', () => {
    expect(hl('Lihovarská 79', 'Lihovarka 79 ')).toBe('<em>Lihovarská</em> <em>79</em>');
  });

  it('marks ß, umlaut and abbreviation matches on the written text', () => {
    expect(hl('Hauptstraße 12, 1010 Wien', 'hauptstrasse 12 1010 ')).toBe('<em>Hauptstraße</em> <em>12</em>, <em>1010</em> Wien');
    expect(hl('Hauptstraße', 'Hauptstra')).toBe('<em>Hauptstra</em>ße');
    // Half of ß typed marks all of it.
    expect(hl('Hauptstraße', 'Hauptstras')).toBe('<em>Hauptstraß</em>e');
    expect(hl('Hauptstraße', 'Hauptstrass')).toBe('<em>Hauptstraß</em>e');
    expect(hl('Müllerstrasse 10', 'Muel')).toBe('<em>Mül</em>lerstrasse 10');
    expect(hl('Muehlebachstrasse 8', 'Mühlebachstrasse 8 ')).toBe('<em>Muehlebachstrasse</em> <em>8</em>');
    expect(hl('Äulestr. 30', 'Äulestrasse 30 ')).toBe('<em>Äulestr</em>. <em>30</em>');
    expect(hl('al. Jana Pawła II 5', 'al. Jana')).toBe('<em>al</em>. <em>Jana</em> Pawła II 5');
  });

  it('marks Polish and four-digit postal codes', () => {
    expect(hl('ul. Marszałkowska 12/3, 00-950 Warszawa', '00950 ')).toBe('ul. Marszałkowska 12/3, <em>00-950</em> Warszawa');
    expect(hl('00-950', '00-9')).toBe('<em>00-9</em>50');
    expect(hl('Bahnhofstrasse 1, 8001 Zürich', 'Zürich 8001')).toBe('Bahnhofstrasse 1, <em>8001</em> <em>Zürich</em>');
  });

  it('HTML-escapes everything but its own tags', () => {
    expect(hl('U <Tří> lip & "spol" 5', 'tri 5')).toBe('U &lt;<em>Tří</em>&gt; lip &amp; &quot;spol&quot; <em>5</em>');
    expect(hl('<script>', 'x')).toBe('&lt;script&gt;');
  });
});
