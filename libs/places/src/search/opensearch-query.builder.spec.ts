import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANDIDATES, CandidateQuery, NEAR_KM, nearBox } from './candidate-query';
import { buildOpenSearchNearby, buildOpenSearchSearch } from './opensearch-query.builder';
import { expansionKey } from './typo-prefix';
import { buildSqliteMatchCount, buildSqliteNearby, buildSqliteNearSearch, buildSqliteSearch } from './sqlite-query.builder';
import { candidateQuery, nearCandidateQuery, planSearch } from './search-plan';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { packedBody } from '@lookup/shared/search';
import { F } from '../store/places.mapping';

/** Query builders are pure: their output is reviewed as the JSON fixtures in __fixtures__. */
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '__fixtures__', name), 'utf8'));

const plan = (p: Record<string, unknown>) => planSearch('query', parseRequest(PlaceQueryRequest, p));

describe('engine request builders', () => {
  const strict = candidateQuery(plan({ query: 'Lihovarská 79/22a, 746 01 Opa', country: 'CZ,SK', context: ['cz_m505927'] }), 'strict');
  const fuzzy = candidateQuery(plan({ query: 'Lihovarka 79', postal_code: '746', contextType: 'strict' }), 'fuzzy');

  it('builds the OpenSearch strict pass', () => {
    expect(buildOpenSearchSearch(strict)).toEqual(fixture('opensearch-strict.json'));
  });

  it('builds the OpenSearch typo pass', () => {
    expect(buildOpenSearchSearch(fuzzy)).toEqual(fixture('opensearch-fuzzy.json'));
  });

  it('builds the OpenSearch reverse lookup', () => {
    expect(buildOpenSearchNearby(49.9387, 17.9026, 10, ['CZ'], 20)).toEqual(fixture('opensearch-nearby.json'));
  });

  it('reads hits from the packed-document column alone when asked: the same query and order, no stored fields', () => {
    const { query, sort, size } = fixture('opensearch-strict.json');
    expect(packedBody(buildOpenSearchSearch(strict) as Record<string, unknown>, F.doc)).toEqual({ size, track_total_hits: false, stored_fields: '_none_', docvalue_fields: ['doc'], query, sort });
    const near = fixture('opensearch-nearby.json');
    expect(packedBody(buildOpenSearchNearby(49.9387, 17.9026, 10, ['CZ'], 20), F.doc)).toEqual({ ...near, stored_fields: '_none_', docvalue_fields: ['doc'] });
  });

  it('builds the same requests as SQL for SQLite', () => {
    const sql = buildSqliteSearch(strict, 'fts_address');
    const typo = buildSqliteSearch(fuzzy, 'fts_address', { [expansionKey({ mode: 'fuzzy', value: 'lihovarka' })]: ['lihovarska'] });
    const near = buildSqliteNearby({ minLat: 49.9, maxLat: 50, minLng: 17.8, maxLng: 17.9 }, ['CZ'], 5000);
    expect({ strict: sql, fuzzy: typo, nearby: near }).toEqual(fixture('sqlite-requests.json'));
  });

  it('sends both engines the same folded terms for German and Polish text', () => {
    const at = candidateQuery(plan({ query: 'Hauptstr. 12/3/5, 1010 Wien' }), 'strict');
    const terms = (body: unknown, n: number) => (body as { query: { bool: { filter: unknown[] } } }).query.bool.filter.slice(0, n);
    expect(terms(buildOpenSearchSearch(at), 6)).toEqual([
      { term: { tokens: 'hauptstrasse' } },
      { term: { tokens: '12' } },
      { term: { tokens: '3' } },
      { term: { tokens: '5' } },
      { term: { tokens: '1010' } },
      { prefix: { tokens: { value: 'wien' } } },
    ]);
    expect(buildSqliteSearch(at, 'fts_address')?.params[0]).toBe('"hauptstrasse" AND "12" AND "3" AND "5" AND "1010" AND "wien"*');
    const pl = candidateQuery(plan({ query: 'al. Jana Pawła II, 00-950 Łódź' }), 'strict');
    expect(buildSqliteSearch(pl, 'fts_address')?.params[0]).toBe('"alej"* AND "jana" AND "pawla" AND "ii" AND "00950" AND "lodz"*');
    expect(terms(buildOpenSearchSearch(pl), 1)).toEqual([{ prefix: { tokens: { value: 'alej' } } }]);
  });

  it('builds the requests for the candidates near a point: one box for both engines, nearest first', () => {
    const around = plan({ query: 'Husova', around_latlng: '49.5938,17.2509', country: 'CZ' });
    const text = candidateQuery(around, 'strict');
    const near = nearCandidateQuery(around, text, CANDIDATES);
    expect(near).toEqual({ ...text, near: { lat: 49.5938, lng: 17.2509, km: NEAR_KM } });
    const q = near as CandidateQuery;
    expect({
      opensearch: buildOpenSearchSearch(q),
      sqlite: {
        count: buildSqliteMatchCount(q, 'fts_address_cz', {}, 3000),
        matches: buildSqliteNearSearch(q, q.near!, 'fts_address_cz', {}, 'matches'),
        box: buildSqliteNearSearch(q, q.near!, 'fts_address_cz', {}, 'box'),
      },
    }).toEqual(fixture('near-requests.json'));
    // The same box: SQLite's R*Tree bounds are OpenSearch's corners.
    const b = nearBox(q.near!);
    const geo = (buildOpenSearchSearch(q) as { query: { bool: { filter: Array<Record<string, unknown>> } } }).query.bool.filter.at(-1);
    expect(geo).toEqual({ geo_bounding_box: { location: { top_left: { lat: b.maxLat, lon: b.minLng }, bottom_right: { lat: b.minLat, lon: b.maxLng } } } });
    expect(buildSqliteNearSearch(q, q.near!, 'fts_address_cz').params.slice(7, 11)).toEqual([b.minLat, b.maxLat, b.minLng, b.maxLng]);
    expect(b.maxLat - 49.5938).toBeCloseTo(NEAR_KM / 111.32, 6);
    // buildSqliteSearch hands a near request on; the text request is as it was.
    expect(buildSqliteSearch(q, 'fts_address_cz')).toEqual(buildSqliteNearSearch(q, q.near!, 'fts_address_cz'));
    expect(buildOpenSearchSearch({ ...q, near: null })).toEqual(buildOpenSearchSearch(text));
  });

  it('asks for the near candidates only with a point and a full text answer', () => {
    const around = plan({ query: 'Husova', around_latlng: '49.5938,17.2509' });
    const text = candidateQuery(around, 'strict');
    expect(nearCandidateQuery(around, text, CANDIDATES - 1)).toBeNull();
    expect(nearCandidateQuery(plan({ query: 'Husova' }), candidateQuery(plan({ query: 'Husova' }), 'strict'), CANDIDATES)).toBeNull();
    const located = planSearch('query', parseRequest(PlaceQueryRequest, { query: 'Husova' }), { lat: 49.22, lng: 17.66 });
    expect(nearCandidateQuery(located, candidateQuery(located, 'fuzzy'), CANDIDATES)?.near).toEqual({ lat: 49.22, lng: 17.66, km: NEAR_KM });
  });

  it('asks nothing of the engine for a query without terms', () => {
    const empty: CandidateQuery = { ...strict, terms: [] };
    expect(buildOpenSearchSearch(empty)).toBeNull();
    expect(buildSqliteSearch(empty, 'fts_address')).toBeNull();
  });
});
