import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from '../../search/testing/test-stores';
import { chSearchSuite } from './ch-search.suite';

describeWith(['opensearch'], 'Swiss address search on OpenSearch', () => {
  chSearchSuite('opensearch', ...openSearchTestStore('chsearch'));
});
