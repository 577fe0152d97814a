import { describeWithData } from '@lookup/shared/testing';
import { sqliteTestStore } from '../../search/testing/test-stores';
import { GEONAMES_DATA, geonamesDataContract } from './testing/geonames-data.contract';

/** The real GeoNames files of all six countries into SQLite (the standalone engine). */
describeWithData(GEONAMES_DATA, 'GeoNames import on SQLite', () => {
  geonamesDataContract('sqlite', ...sqliteTestStore('geonames-data'));
});
