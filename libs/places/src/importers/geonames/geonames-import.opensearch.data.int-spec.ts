import { describeWith, describeWithData } from '@lookup/shared/testing';
import { openSearchTestStore } from '../../search/testing/test-stores';
import { GEONAMES_DATA, geonamesDataContract } from './testing/geonames-data.contract';

/** The same GeoNames import and answers on OpenSearch, in indexes of its own. */
describeWithData(GEONAMES_DATA, 'GeoNames import on OpenSearch', () => {
  describeWith(['opensearch'], 'on a real OpenSearch', () => {
    geonamesDataContract('opensearch', ...openSearchTestStore('geonames', 60_000));
  });
});
