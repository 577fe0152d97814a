import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@lookup/shared/testing';
import { docOf, emptyDoc, PlaceDoc } from '../domain/place.doc';
import { candidateQuery, planSearch } from '../search/search-plan';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { searchFixtureDocs } from '../search/testing/search-fixtures';
import { sqliteTestStore } from '../search/testing/test-stores';
import { PlacesStore } from './places.store';
import { SqlitePlacesStore } from './sqlite-places.store';

/**
 * Rows keep the packed document (a JSON array); every document read back has all fields, in
 * PlaceDoc's order, whichever were stored (one V8 shape for the ranking code: see docOf).
 */
describe('SQLite store: documents read back all have the same fields in the same order', () => {
  const [make, dispose] = sqliteTestStore('sqlite-shape');
  let store: PlacesStore;

  beforeAll(async () => {
    store = await make();
    await store.upsert(searchFixtureDocs());
  });
  afterAll(() => dispose(store));

  it('for candidates, lists and single documents, with nulls where nothing was stored', async () => {
    const order = Object.keys(emptyDoc('CZ', 'address', 'x', 'x'));
    const plan = planSearch('query', parseRequest(PlaceQueryRequest, { query: 'Lihovarská' }));
    const candidates = await store.candidates(candidateQuery(plan, 'strict'));
    const regions = await store.list('CZ', 'municipality');
    const one = await store.get(candidates[0].place_id);
    const docs = [...candidates, ...regions, one];
    expect(candidates.length).toBeGreaterThan(1);
    expect(regions.length).toBeGreaterThan(0);
    for (const d of docs) expect(Object.keys(d ?? {})).toEqual(order);
    // A municipality stores no street: it reads back as null, not missing.
    expect(regions[0].street).toBeNull();
  });
});

describe('SQLite store: the doc column', () => {
  const dir = tempDir('sqlite-doc-');
  afterAll(() => dir.remove());
  const docs = searchFixtureDocs().slice(0, 3);

  async function storeWith(rows: PlaceDoc[]): Promise<{ store: SqlitePlacesStore; file: string }> {
    const file = join(dir.path, `places-${Math.random().toString(36).slice(2)}.sqlite`);
    const store = new SqlitePlacesStore(file);
    await store.init();
    await store.upsert(rows);
    return { store, file };
  }

  it('holds the packed document, without the keys', async () => {
    const { store, file } = await storeWith(docs);
    await store.close();
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT doc FROM places WHERE place_id = ?').get(docs[0].place_id) as { doc: string };
    db.close();
    expect(JSON.parse(row.doc)).toEqual([1, ...Object.values(docs[0])]);
  });

  it('reads rows written before the packed form (the non-null fields as a keyed object) beside packed ones', async () => {
    const { store, file } = await storeWith(docs);
    await store.close();
    const db = new Database(file);
    // How files made by earlier versions hold their rows: the non-null fields only.
    const keyed = (d: PlaceDoc) => JSON.stringify(Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null)));
    db.prepare('UPDATE places SET doc = ? WHERE place_id = ?').run(keyed(docs[1]), docs[1].place_id);
    db.close();
    const reopened = new SqlitePlacesStore(file);
    await reopened.init();
    try {
      for (const d of docs) {
        const back = await reopened.get(d.place_id);
        expect(back).toEqual(docOf(d));
        expect(Object.keys(back ?? {})).toEqual(Object.keys(emptyDoc('CZ', 'address', 'x', 'x')));
      }
    } finally {
      await reopened.close();
    }
  });

  it('refuses a packed form it does not know, naming the row, instead of reading it wrong', async () => {
    const { store, file } = await storeWith(docs);
    await store.close();
    const db = new Database(file);
    db.prepare('UPDATE places SET doc = ? WHERE place_id = ?').run(JSON.stringify([2, ...Object.values(docs[0])]), docs[0].place_id);
    db.close();
    const reopened = new SqlitePlacesStore(file);
    await reopened.init();
    try {
      await expect(reopened.get(docs[0].place_id)).rejects.toThrow(/packed form this version does not know: \[2,/);
    } finally {
      await reopened.close();
    }
  });
});
