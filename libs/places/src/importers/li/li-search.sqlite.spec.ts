import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';
import { liSearchSuite } from './li-search.suite';

const dir = tempDir('li-search-');
afterAll(() => dir.remove());

liSearchSuite(
  'sqlite',
  async () => {
    const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await s.init();
    return s;
  },
  (s) => s.close(),
);
