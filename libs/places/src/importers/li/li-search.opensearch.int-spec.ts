import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from '../../search/testing/test-stores';
import { liSearchSuite } from './li-search.suite';

describeWith(['opensearch'], 'Liechtenstein address search on OpenSearch', () => {
  liSearchSuite('opensearch', ...openSearchTestStore('lisearch'));
});
