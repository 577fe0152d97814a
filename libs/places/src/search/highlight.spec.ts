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

  it('HTML-escapes everything but its own tags', () => {
    expect(hl('U <Tří> lip & "spol" 5', 'tri 5')).toBe('U &lt;<em>Tří</em>&gt; lip &amp; &quot;spol&quot; <em>5</em>');
    expect(hl('<script>', 'x')).toBe('&lt;script&gt;');
  });
});
