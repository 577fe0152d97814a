import { BF } from '../domain/business.doc';
import { BusinessFilter } from './business.store';

/**
 * Pure query builders for the OpenSearch adapter (their JSON is reviewed in
 * opensearch-business.query.spec.ts). Everything is filter context: ranking is ours.
 */
function filters(f: BusinessFilter): unknown[] {
  const out: unknown[] = [];
  if (f.activeOnly) out.push({ term: { [BF.active]: true } });
  if (f.countries && f.countries.length > 0) out.push({ terms: { [BF.country]: f.countries } });
  return out;
}

export function namePrefixQuery(key: string, f: BusinessFilter, size: number): Record<string, unknown> {
  return {
    size,
    _source: [BF.doc],
    query: { bool: { filter: [{ prefix: { [BF.nameKey]: key } }, ...filters(f)] } },
    sort: [{ [BF.nameKey]: 'asc' }, { [BF.id]: 'asc' }],
  };
}

export function tokensQuery(words: string[], prefixes: string[], f: BusinessFilter, size: number): Record<string, unknown> {
  return {
    size,
    _source: [BF.doc],
    query: {
      bool: {
        filter: [
          ...words.map((w) => ({ term: { [BF.nameTokens]: w } })),
          ...prefixes.map((p) => ({ prefix: { [BF.nameTokens]: p } })),
          ...filters(f),
        ],
      },
    },
  };
}

export function cinQuery(digits: string, key: string, f: BusinessFilter, size: number): Record<string, unknown> {
  const should: unknown[] = [{ prefix: { [BF.cin]: digits } }];
  if (key !== '') should.push({ prefix: { [BF.cinKey]: key } }, { constant_score: { filter: { term: { [BF.cinKey]: key } }, boost: 10 } });
  return {
    size,
    _source: [BF.doc],
    query: { bool: { should, minimum_should_match: 1, filter: filters(f) } },
    sort: [{ _score: 'desc' }, { [BF.cin]: 'asc' }],
  };
}
