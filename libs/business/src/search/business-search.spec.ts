import { packedBody } from '@lookup/shared/search';
import { BF, BusinessDoc } from '../domain/business.doc';
import { highlightName } from './business-highlight';
import { parseCinQuery, rankByCin, rankByName } from './business-ranking';
import { lenientMatch, parseNameQuery, strictMatch } from './name-query';
import { cinQuery, namePrefixQuery, tokensQuery } from '../store/opensearch-business.query';

const doc = (business_id: string, name: string, terminated_on: string | null = null, cin = '00000001'): BusinessDoc =>
  ({ business_id, name, terminated_on, cin, country: 'CZ' }) as BusinessDoc;

describe('business name queries', () => {
  it('whole words typed, the last one as a prefix; lenient pass makes every word a prefix', () => {
    const q = parseNameQuery('Škoda au')!;
    expect(strictMatch(q)).toEqual({ words: ['skoda'], prefixes: ['au'] });
    expect(lenientMatch(q)).toEqual({ words: [], prefixes: ['skoda', 'au'] });
    expect(strictMatch(parseNameQuery('skoda ')!)).toEqual({ words: ['skoda'], prefixes: [] });
  });

  it('ranks same name, then names starting with the query, then any order; existing before terminated', () => {
    const q = parseNameQuery('modra hvezda')!;
    const ranked = rankByName(
      [doc('cz_4', 'Hvězda modrá s.r.o.'), doc('cz_3', 'Modrá hvězda Brno'), doc('cz_2', 'Modrá hvězda', '2020-01-01'), doc('cz_1', 'Modrá hvězda'), doc('cz_5', 'Zelená')],
      q,
      10,
    );
    expect(ranked.map((r) => [r.doc.business_id, r.tier])).toEqual([
      ['cz_1', 0],
      ['cz_2', 0],
      ['cz_3', 1],
      ['cz_4', 2],
    ]);
  });

  it('highlights typed prefixes, whole words and legal forms, escaping the rest', () => {
    expect(highlightName('Tatra <b> spol. s r.o.', parseNameQuery('tat s.r.o.')!)).toBe('<em>Tat</em>ra &lt;b&gt; <em>spol. s r.o.</em>');
  });

  it('finds id numbers exact first, then typed prefixes padded or not', () => {
    const q = parseCinQuery('1770')!;
    const ranked = rankByCin([doc('cz_b', 'B', null, '17701234'), doc('cz_a', 'A', null, '00177041'), doc('cz_c', 'C', null, '00001770')], q, 10);
    expect(ranked.map((r) => [r.doc.cin, r.tier])).toEqual([
      ['00001770', 0],
      ['17701234', 1],
      ['00177041', 2],
    ]);
  });
});

describe('OpenSearch business queries (pure builders)', () => {
  const f = { countries: ['CZ' as const], activeOnly: true };
  it('filter-context JSON', () => {
    expect(namePrefixQuery('skoda', f, 5)).toEqual({
      size: 5,
      _source: ['doc'],
      query: { bool: { filter: [{ prefix: { name_key: 'skoda' } }, { term: { active: true } }, { terms: { country: ['CZ'] } }] } },
      sort: [{ name_key: 'asc' }, { business_id: 'asc' }],
    });
    expect(tokensQuery(['skoda'], ['au'], { countries: null, activeOnly: false }, 9)).toEqual({
      size: 9,
      _source: ['doc'],
      query: { bool: { filter: [{ term: { name_tokens: 'skoda' } }, { prefix: { name_tokens: 'au' } }] } },
    });
    expect(cinQuery('0017', '17', { countries: null, activeOnly: false }, 3)).toEqual({
      size: 3,
      _source: ['doc'],
      query: {
        bool: {
          should: [{ prefix: { cin: '0017' } }, { prefix: { cin_key: '17' } }, { constant_score: { filter: { term: { cin_key: '17' } }, boost: 10 } }],
          minimum_should_match: 1,
          filter: [],
        },
      },
      sort: [{ _score: 'desc' }, { cin: 'asc' }],
    });
  });

  it('reads hits from the packed column alone when asked: the same query and order, no stored fields', () => {
    const packed = { stored_fields: '_none_', docvalue_fields: ['doc_packed'] };
    const strip = ({ _source: _s, ...rest }: Record<string, unknown>) => rest;
    expect(packedBody(namePrefixQuery('skoda', f, 5), BF.packed)).toEqual({ ...strip(namePrefixQuery('skoda', f, 5)), ...packed });
    expect(packedBody(tokensQuery(['skoda'], ['au'], f, 9), BF.packed)).toEqual({ ...strip(tokensQuery(['skoda'], ['au'], f, 9)), ...packed });
    expect(packedBody(cinQuery('0017', '17', f, 3), BF.packed)).toEqual({ ...strip(cinQuery('0017', '17', f, 3)), ...packed });
  });
});
