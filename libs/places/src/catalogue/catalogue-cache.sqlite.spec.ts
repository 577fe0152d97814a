import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { catalogueCacheContract } from './testing/catalogue-cache.contract';

const dir = tempDir('catalogue-cache-');
afterAll(() => dir.remove());
let n = 0;

// Two live connections on one file, as a server and an import command in another process have.
catalogueCacheContract('SQLite', async () => {
  const path = join(dir.path, `places-${n++}.sqlite`);
  const writer = new SqlitePlacesStore(path);
  await writer.init();
  const reader = new SqlitePlacesStore(path);
  await reader.init();
  return { reader, writer, dispose: async () => (await reader.close(), await writer.close()) };
});
