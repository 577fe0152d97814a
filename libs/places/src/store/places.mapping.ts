import { IndexDefinition } from '@lookup/shared/search';

/** Field names used in engine requests; never spelled at call sites. */
export const F = {
  placeId: 'place_id',
  country: 'country',
  object: 'object',
  name: 'name',
  nameSort: 'name.raw',
  location: 'location',
} as const;

const keyword = { type: 'keyword' };

/**
 * The places index. Every PlaceDoc field is stored in _source; these are the ones the engine
 * filters, sorts or searches on. `folded` lowercases and strips diacritics (Czech, Slovak,
 * Polish and German text alike).
 */
export const PLACES_INDEX: IndexDefinition = {
  settings: {
    number_of_shards: 1,
    number_of_replicas: 0,
    analysis: {
      analyzer: {
        folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
      },
    },
  },
  mappings: {
    dynamic: false,
    properties: {
      place_id: keyword,
      country: keyword,
      object: keyword,
      name: { type: 'text', analyzer: 'folded', fields: { raw: keyword } },
      region_id: keyword,
      county_id: keyword,
      municipality_id: keyword,
      postal_code: keyword,
      location: { type: 'geo_point' },
    },
  },
};
