import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';
import { plSearchSuite } from './pl-search.suite';

/** The standalone engine: the PL fixtures imported into SQLite in a temporary file. */
const dir = tempDir('pl-search-');
afterAll(() => dir.remove());

plSearchSuite(
  'sqlite',
  async () => {
    const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await s.init();
    return s;
  },
  (s) => s.close(),
);
