import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';
import { chSearchSuite } from './ch-search.suite';

const dir = tempDir('ch-search-');
afterAll(() => dir.remove());

chSearchSuite(
  'sqlite',
  async () => {
    const s = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await s.init();
    return s;
  },
  (s) => s.close(),
);
