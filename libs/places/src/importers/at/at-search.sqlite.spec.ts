import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';
import { atSearchContract } from './at-search.contract';

/** The standalone engine: SQLite in a temporary file. */
const dir = tempDir('at-search-');
afterAll(() => dir.remove());

atSearchContract(
  'sqlite',
  async () => {
    const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await s.init();
    return s;
  },
  (s) => s.close(),
);
