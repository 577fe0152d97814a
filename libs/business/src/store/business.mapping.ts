import { type IndexDefinition, REPLICAS } from '@lookup/shared/search';
import { BF } from '../domain/business.doc';

/** The packed document: a binary doc-values column. */
export const PACKED_FIELD = { type: 'binary', doc_values: true };

/**
 * The business index. Tokens are folded by our own code (see name-tokens.ts), so the engine only
 * splits on spaces; `index_prefixes` makes the prefix query on the typed word cheap.
 */
export const BUSINESS_INDEX: IndexDefinition = {
  settings: {
    number_of_shards: 1,
    // One replica per shard once the cluster has two data nodes, none on a single node (stays green).
    auto_expand_replicas: REPLICAS,
    refresh_interval: '1s',
    analysis: { analyzer: { spaces: { type: 'custom', tokenizer: 'whitespace' } } },
  },
  mappings: {
    dynamic: 'strict',
    _source: { excludes: [BF.packed] },
    properties: {
      [BF.id]: { type: 'keyword' },
      [BF.country]: { type: 'keyword' },
      [BF.nameKey]: { type: 'keyword' },
      [BF.nameTokens]: { type: 'text', analyzer: 'spaces', index_prefixes: { min_chars: 1, max_chars: 10 }, norms: false, index_options: 'docs' },
      [BF.cin]: { type: 'keyword' },
      [BF.cinKey]: { type: 'keyword' },
      [BF.active]: { type: 'boolean' },
      [BF.doc]: { type: 'object', enabled: false },
      // Searches read their hits here, not from _source (see PackedHitsReader); added in place to
      // an index made before it (the mapping is strict), whose older documents are then read through _source.
      [BF.packed]: PACKED_FIELD,
    },
  },
};

export const BUSINESS_ALIAS_SUFFIX = 'business';
