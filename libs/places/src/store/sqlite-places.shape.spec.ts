import { emptyDoc } from '../domain/place.doc';
import { candidateQuery, planSearch } from '../search/search-plan';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { searchFixtureDocs } from '../search/testing/search-fixtures';
import { sqliteTestStore } from '../search/testing/test-stores';
import { PlacesStore } from './places.store';

/**
 * Rows keep only a document's non-null fields; every document read back has all fields, in
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
