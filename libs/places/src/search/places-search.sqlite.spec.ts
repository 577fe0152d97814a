import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { placesSearchContract } from './testing/places-search.contract';

/** The standalone engine always runs the shared contract: SQLite in a temporary file. */
const dir = tempDir('places-search-');
afterAll(() => dir.remove());

placesSearchContract(
  'sqlite',
  async () => {
    const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await s.init();
    return s;
  },
  (s) => s.close(),
);
