import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from './testing/test-stores';
import { placesSearchContract } from './testing/places-search.contract';
import { placesSearchAroundContract, placesSearchAroundPrefixContract } from './testing/places-search-around.contract';

/** The distributed engine runs the same contract against a real OpenSearch, in an index of its own. */
describeWith(['opensearch'], 'places search on OpenSearch', () => {
  placesSearchContract('opensearch', ...openSearchTestStore('search'));
  placesSearchAroundContract('opensearch', ...openSearchTestStore('search-around'));
  placesSearchAroundPrefixContract('opensearch', ...openSearchTestStore('search-around-prefix'));
});
