import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from '../../search/testing/test-stores';
import { atSearchContract } from './at-search.contract';

/** The distributed engine: the same expectations against a real OpenSearch, in indexes of its own. */
describeWith(['opensearch'], 'Austrian address search on OpenSearch', () => {
  atSearchContract('opensearch', ...openSearchTestStore('at-search'));
});
