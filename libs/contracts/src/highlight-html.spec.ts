import { escapeHtml } from './highlight-html';

describe('escapeHtml (the highlight field is HTML)', () => {
  it('escapes the five characters that could open markup or end an attribute, and nothing else', () => {
    expect(escapeHtml(`<em onclick="x">Tom & Jerry's</em>`)).toBe('&lt;em onclick=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/em&gt;');
    expect(escapeHtml('Náměstí Míru 12/3, 120 00 Praha')).toBe('Náměstí Míru 12/3, 120 00 Praha');
  });
});
