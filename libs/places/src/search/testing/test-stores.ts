import { join } from 'node:path';
import { createOpenSearchClient } from '@lookup/shared/search';
import { serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { OpenSearchPlacesStore } from '../../store/opensearch-places.store';
import { PlacesStore } from '../../store/places.store';
import { SqlitePlacesStore } from '../../store/sqlite-places.store';

/** What every engine suite takes: a fresh, initialised, empty store, and how to dispose of it. */
export type TestStore = [make: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>];

/** The standalone engine: SQLite in a temporary folder removed after the file's tests. Call at file or describe level. */
export function sqliteTestStore(label: string): TestStore {
  const dir = tempDir(`${label}-`);
  afterAll(() => dir.remove());
  let n = 0;
  return [
    async () => {
      const s = new SqlitePlacesStore(join(dir.path, `places-${n++}.sqlite`));
      await s.init();
      return s;
    },
    (s) => s.close(),
  ];
}

/** The distributed engine: a real OpenSearch, in indexes of the suite's own prefix, deleted on dispose. */
export function openSearchTestStore(label: string, timeoutMs = 10_000): TestStore {
  const prefix = uniqueName(label);
  const client = () => createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs });
  return [
    async () => {
      const s = new OpenSearchPlacesStore(client(), prefix);
      await s.init();
      return s;
    },
    async (s) => {
      const c = client();
      await c.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await c.close();
      await s.close();
    },
  ];
}
