import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@lookup/contracts';
import { fbtTextHash } from '../fbt/fbt-hash';
import { parseNativeStrings } from './native-strings.parser';

const raw = (name: string) => readFileSync(join(__dirname, '../fixtures', name), 'utf8');

function failure(json: string): { type: string; param: string | null; message: string } {
  try {
    parseNativeStrings(json);
  } catch (e) {
    const d = e as DomainError;
    return { type: d.type, param: d.param, message: d.message };
  }
  throw new Error('expected a DomainError');
}

const textPhrase = (over: Record<string, unknown> = {}) => ({
  hashToText: { [fbtTextHash('Hello', 'greeting')]: 'Hello' },
  desc: 'greeting',
  project: 'shop',
  author: 'dev@example.com',
  type: 'text',
  jsfbt: 'Hello',
  ...over,
});

describe('parseNativeStrings', () => {
  it('reads the fbt 0.20 collection (the spec shape): texts, tables, variations, parents', () => {
    const parsed = parseNativeStrings(raw('shop.fbt-0.20.collection.json'));
    expect(parsed.texts).toHaveLength(10);
    const plural = parsed.texts.filter((t) => t.description === 'cart summary');
    expect(plural.map((t) => t.text)).toEqual(['You have {number} items in the cart', 'You have 1 item in the cart']);
    expect(plural[0]).toMatchObject({ type: 'table', project: 'shop', author: '', element: 1 });
    expect(JSON.parse(plural[0].jsfbt).m).toEqual([{ token: 'number', type: 2, singular: true }]);
    expect(parsed.texts[0]).toMatchObject({ type: 'text', jsfbt: 'Your cart' });
    expect([...parsed.parents]).toEqual([[6, 5], [7, 6]]);
    expect(parsed.mismatches).toEqual([]);
  });

  it('reads the babel-plugin-fbt 1.0 collection (hashToLeaf) into the same texts', () => {
    const old = parseNativeStrings(raw('shop.fbt-0.20.collection.json'));
    const neu = parseNativeStrings(raw('shop.fbt-1.0.collection.json'));
    const key = (t: { hash: string; text: string; description: string; type: string }) => [t.hash, t.text, t.description, t.type].join('|');
    expect(neu.texts.map(key)).toEqual(old.texts.map(key));
    // A text phrase's source.jsfbt is its text in both (what the Phrase answers); a table's is its {t, m} JSON.
    expect(neu.texts[0]).toMatchObject({ type: 'text', jsfbt: 'Your cart' });
    expect(JSON.parse(neu.texts.find((t) => t.description === 'cart summary')!.jsfbt).m).toEqual([{ token: 'number', type: 2, singular: true }]);
  });

  it('takes the bare phrases array as the spec documents it', () => {
    const parsed = parseNativeStrings(JSON.stringify([textPhrase()]));
    expect(parsed.texts).toEqual([expect.objectContaining({ text: 'Hello', author: 'dev@example.com', project: 'shop', type: 'text' })]);
  });

  it.each([
    ['not JSON', '{"phrases": [', 'native_strings', /not valid JSON/],
    ['a string', '"hello"', 'native_strings', /JSON array/],
    ['an element that is not an object', '[1]', 'native_strings[0]', /object/],
    ['no hashToText', JSON.stringify([{ desc: 'x', type: 'text', jsfbt: 'x' }]), 'native_strings[0].hashToText', /hashToText/],
    ['desc missing', JSON.stringify([textPhrase({ desc: undefined })]), 'native_strings[0].desc', /description/],
    ['bad type', JSON.stringify([textPhrase(), textPhrase({ type: 'list' })]), 'native_strings[1].type', /"text" or "table"/],
    ['text phrase with a table', JSON.stringify([textPhrase({ jsfbt: { t: {} } })]), 'native_strings[0].jsfbt', /string/],
    ['table without t', JSON.stringify([textPhrase({ type: 'table', jsfbt: { m: [] } })]), 'native_strings[0].jsfbt', /table/],
    ['empty text', JSON.stringify([textPhrase({ hashToText: { abc: '' } })]), 'native_strings[0].hashToText', /non-empty/],
    ['author not a string', JSON.stringify([textPhrase({ author: 5 })]), 'native_strings[0].author', /string/],
    ['wrong hash', JSON.stringify([textPhrase({ hashToText: { 'AAAAAAAAAAAAAAAAAAAAAA==': 'Hello' } })]), 'native_strings[0].hash', /md5 of text\+desc gives/],
    ['bad childParentMappings', JSON.stringify({ phrases: [textPhrase()], childParentMappings: { 0: 3 } }), 'native_strings.childParentMappings', /two phrases/],
  ])('%s -> invalid_parameter naming the element', (_name, json, param, message) => {
    const f = failure(json);
    expect(f).toMatchObject({ type: 'invalid_parameter', param });
    expect(f.message).toMatch(message);
  });

  it('with hash_check=report keeps a foreign hash and reports it', () => {
    const parsed = parseNativeStrings(JSON.stringify([textPhrase({ hashToText: { custom1: 'Hello' } })]), 'report');
    expect(parsed.texts.map((t) => t.hash)).toEqual(['custom1']);
    expect(parsed.mismatches).toEqual([{ element: 0, hash: 'custom1', expected: fbtTextHash('Hello', 'greeting') }]);
  });
});
