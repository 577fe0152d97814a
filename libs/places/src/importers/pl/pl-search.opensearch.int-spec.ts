import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from '../../search/testing/test-stores';
import { plSearchSuite } from './pl-search.suite';

/** The distributed engine: the same PL suite against a real OpenSearch, in an index of its own. */
describeWith(['opensearch'], 'PL places search on OpenSearch', () => {
  plSearchSuite('opensearch', ...openSearchTestStore('plsearch'));
});
