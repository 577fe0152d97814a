import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@lookup/shared/testing';
import { address, municipality, street } from '../search/testing/search-fixtures';
import { SqlitePlacesStore } from './sqlite-places.store';
import { MUNICIPALITY_POSTAL_INDEX } from './sqlite-places.schema';
import { queryPlan } from './sqlite-plan.testing';

/**
 * The postal codes of a town's documents (a postal search refined by a town, at every keystroke
 * of the code) come from an index on (municipality_id, postal_code): on the whole CZ register,
 * reading the town's addresses by its words instead took 25-50 ms for `Lhota` or `Nová`.
 */
describe('SQLite postal codes of municipalities', () => {
  const dir = tempDir('sqlite-municipality-postal-');
  afterAll(() => dir.remove());

  it('reads them from the index alone; a file no writer has opened since the index came answers none instead of reading every document', async () => {
    const file = join(dir.path, 'places.sqlite');
    const store = new SqlitePlacesStore(file);
    await store.init();
    await store.upsert([municipality('opava'), street('opava', 'Lihovarská'), address('opava', 'Lihovarská', '79'), address('opava', 'Lihovarská', '80')]);
    const opava = municipality('opava').place_id;
    const [code] = (await store.municipalityPostalCodes([opava], '', 10)).map((r) => r.postal_code);
    expect(code).toMatch(/^\d{5}$/);
    expect(await store.municipalityPostalCodes([opava, 'cz_m1'], code!.slice(0, 2), 10)).toEqual([{ municipality_id: opava, postal_code: code }]);
    expect(await store.municipalityPostalCodes([opava], `${code}9`, 10)).toEqual([]);
    await store.close();

    const db = new Database(file);
    try {
      const sql = `SELECT DISTINCT municipality_id, postal_code FROM places WHERE municipality_id IN (?) AND postal_code >= ? AND postal_code < ?`;
      expect(queryPlan(db, sql, [opava, '74', '74\uffff'])).toEqual([expect.stringMatching(new RegExp(`^SEARCH places USING COVERING INDEX ${MUNICIPALITY_POSTAL_INDEX} `))]);
      // A file written before the index (what a reader may meet until a writer opens it).
      db.exec(`DROP INDEX ${MUNICIPALITY_POSTAL_INDEX}`);
    } finally {
      db.close();
    }
    const reader = new SqlitePlacesStore(file, 'reader');
    await reader.init();
    try {
      expect(await reader.municipalityPostalCodes([opava], '', 10)).toEqual([]);
    } finally {
      await reader.close();
    }
    // A writer brings the file to the schema: the index is back.
    const writer = new SqlitePlacesStore(file);
    await writer.init();
    try {
      expect(await writer.municipalityPostalCodes([opava], '', 10)).toEqual([{ municipality_id: opava, postal_code: code }]);
    } finally {
      await writer.close();
    }
  });
});
