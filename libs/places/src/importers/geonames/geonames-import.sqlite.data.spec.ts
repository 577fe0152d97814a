import { join } from 'node:path';
import { describeWithData, tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';
import { GEONAMES_DATA, geonamesDataContract } from './testing/geonames-data.contract';

/** The real GeoNames files of all six countries into SQLite (the standalone engine). */
describeWithData(GEONAMES_DATA, 'GeoNames import on SQLite', () => {
  const dir = tempDir('geonames-data-');
  afterAll(() => dir.remove());
  geonamesDataContract(
    'sqlite',
    async () => {
      const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
      await s.init();
      return s;
    },
    (s) => s.close(),
  );
});
