import { IndexDefinition, REPLICAS } from '@lookup/shared/search';

/** Field names used in engine requests; never spelled at call sites. */
export const F = {
  placeId: 'place_id',
  country: 'country',
  object: 'object',
  name: 'name',
  nameSort: 'name.raw',
  location: 'location',
  tokens: 'tokens',
  regionId: 'region_id',
  countyId: 'county_id',
  municipalityId: 'municipality_id',
  postalCode: 'postal_code',
  doc: 'doc',
} as const;

const keyword = { type: 'keyword' };

/**
 * Search terms, folded by our own code (search/doc-tokens.ts) so OpenSearch and SQLite index
 * exactly the same tokens: whitespace-split here, nothing else. The language rules (Czech and
 * Polish letters, `ß` = `ss`, umlauts also as `ae`/`oe`/`ue`, `Hauptstr.` = `hauptstrasse`,
 * `al.` = aleja/aleje) are in those tokens, not in an analyzer. Added to older indexes by
 * put-mapping at start.
 *
 * `index_prefixes` 1-3: the word being typed is a prefix query, and a short one (`3`, `Li`)
 * otherwise expands to thousands of terms on its first use; with it, a term of the hidden prefix
 * field (what SQLite's FTS5 `prefix = '1 2 3'` does). Whole CZ, the 1 117 typed golden queries
 * each seen once after clearing the query cache (bench/opensearch-first-sight.ts, two rounds in
 * swapped order): p50 1.44-1.66 ms instead of 1.71-2.39, p95 5.56-5.81 instead of 6.48-7.90;
 * index 478 MB instead of 452, import time the same (160 s).
 */
export const TOKENS_FIELD = { type: 'text', analyzer: 'whitespace', norms: false, index_options: 'docs', index_prefixes: { min_chars: 1, max_chars: 3 } };

/**
 * The packed document (`packDoc`): a binary doc-values column, so a search reads its candidates
 * without Lucene's stored fields. Not added to an index made before it (its documents would lack
 * the values); such an index is read through `_source` until its data's next version.
 */
export const DOC_FIELD = { type: 'binary', doc_values: true };

/**
 * The places index. Every PlaceDoc field is stored in _source; these are the ones the engine
 * filters, sorts or searches on. `folded` lowercases and strips diacritics (Czech, Slovak,
 * Polish and German text alike).
 */
export const PLACES_INDEX: IndexDefinition = {
  settings: {
    number_of_shards: 1,
    // One replica per shard once the cluster has two data nodes, none on a single node (stays green).
    auto_expand_replicas: REPLICAS,
    analysis: {
      analyzer: {
        folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
      },
    },
  },
  mappings: {
    dynamic: false,
    _source: { excludes: ['tokens', 'doc'] },
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
      tokens: TOKENS_FIELD,
      // The whole document packed (opensearch-places.stored.ts `packDoc`), read by searches as a doc value.
      doc: DOC_FIELD,
    },
  },
};
