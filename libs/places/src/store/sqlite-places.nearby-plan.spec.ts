import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@lookup/shared/testing';
import { buildSqliteNearby } from '../search/sqlite-query.builder';
import { address, municipality, street } from '../search/testing/search-fixtures';
import { SqlitePlacesStore } from './sqlite-places.store';
import { favourCountryIndex, queryPlan } from './sqlite-plan.testing';

/**
 * Reverse geocoding reads the R*Tree box first and each hit's document by rowid, whatever the
 * statistics say. A reviewer's store (the whole CZ register and five more countries' layers)
 * had statistics under which SQLite preferred the (country, object) index for `country=CZ` and
 * looked every CZ address up in the R*Tree: 2.2-2.9 s a reverse lookup instead of milliseconds.
 * Here the same choice is provoked with statistics that make that index look selective.
 */
describe('SQLite reverse lookup plan', () => {
  const dir = tempDir('sqlite-nearby-plan-');
  afterAll(() => dir.remove());

  const box = { minLat: 49.9, maxLat: 50, minLng: 17.8, maxLng: 17.95 };

  it('scans the R*Tree box and reads documents by rowid, also when the statistics favour the country index', async () => {
    const file = join(dir.path, 'places.sqlite');
    const store = new SqlitePlacesStore(file);
    await store.init();
    await store.upsert([municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79'), address('opava', 'Lihovarská', '80')]);
    await store.close();

    const db = new Database(file);
    try {
      favourCountryIndex(db);
      const plan = (sql: string, params: unknown[]) => queryPlan(db, sql, params);
      const near = buildSqliteNearby(box, ['CZ'], 200);
      // The statistics do provoke the bad plan for an unpinned join of the same tables.
      expect(plan(near.sql.replace(' CROSS JOIN ', ' JOIN '), near.params)[0]).toMatch(/^SEARCH p USING INDEX places_country_object/);
      expect(plan(near.sql, near.params)).toEqual([expect.stringMatching(/^SCAN r VIRTUAL TABLE INDEX 2:/), expect.stringMatching(/^SEARCH p USING INTEGER PRIMARY KEY/)]);
      const noCountry = buildSqliteNearby(box, null, 200);
      expect(plan(noCountry.sql, noCountry.params)[0]).toMatch(/^SCAN r VIRTUAL TABLE INDEX 2:/);
    } finally {
      db.close();
    }

    const reader = new SqlitePlacesStore(file, 'reader');
    await reader.init();
    try {
      const hits = await reader.nearby({ lat: 49.9387, lng: 17.9026, metres: 5000, countries: ['CZ'], size: 5 });
      expect(hits.map((h) => h.doc.object)).toEqual(['address', 'address']);
    } finally {
      await reader.close();
    }
  });
});
