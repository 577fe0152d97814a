import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CandidateQuery } from './candidate-query';
import { buildOpenSearchNearby, buildOpenSearchSearch } from './opensearch-query.builder';
import { buildSqliteNearby, buildSqliteSearch } from './sqlite-query.builder';
import { candidateQuery, planSearch } from './search-plan';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';

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

  it('builds the same requests as SQL for SQLite', () => {
    const sql = buildSqliteSearch(strict, 'fts_address');
    const typo = buildSqliteSearch(fuzzy, 'fts_address', { lihovarka: ['lihovarska'] });
    const near = buildSqliteNearby({ minLat: 49.9, maxLat: 50, minLng: 17.8, maxLng: 17.9 }, ['CZ'], 5000);
    expect({ strict: sql, fuzzy: typo, nearby: near }).toEqual(fixture('sqlite-requests.json'));
  });

  it('asks nothing of the engine for a query without terms', () => {
    const empty: CandidateQuery = { ...strict, terms: [] };
    expect(buildOpenSearchSearch(empty)).toBeNull();
    expect(buildSqliteSearch(empty, 'fts_address')).toBeNull();
  });
});
