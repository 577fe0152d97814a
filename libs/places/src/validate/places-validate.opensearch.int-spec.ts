import { describeWith } from '@lookup/shared/testing';
import { openSearchTestStore } from '../search/testing/test-stores';
import { placesValidateContract } from './testing/places-validate.contract';

/** The distributed engine runs the same validation contract against a real OpenSearch, in an index of its own. */
describeWith(['opensearch'], 'places validate on OpenSearch', () => {
  placesValidateContract('opensearch', ...openSearchTestStore('validate'));
});
