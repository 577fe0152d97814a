import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { tempDir } from '@lookup/shared/testing';
import { CandidateQuery, NEAR_KM } from '../search/candidate-query';
import { PlacesSearchService } from '../search/places-search.service';
import { buildSqliteMatchCount, buildSqliteNearSearch } from '../search/sqlite-query.builder';
import { aroundFixtureDocs } from '../search/testing/places-search-around.contract';
import { TOWNS } from '../search/testing/search-fixtures';
import { SqlitePlacesStore } from './sqlite-places.store';
import { favourCountryIndex, queryPlan } from './sqlite-plan.testing';

/**
 * The candidates near an around_latlng point (NearPlan): both plans give the same rows, and
 * SQLite runs each in the order written whatever its statistics say. A plan the planner picked
 * itself could probe the full-text index once per point of the box (a match expression per
 * point) or walk the (country, object) index.
 */
describe('SQLite candidates near a point', () => {
  const dir = tempDir('sqlite-near-plan-');
  afterAll(() => dir.remove());
  const file = join(dir.path, 'places.sqlite');
  const at = { lat: TOWNS.olomouc.lat, lng: TOWNS.olomouc.lng };
  const near: CandidateQuery = {
    objects: ['address'],
    countries: ['CZ'],
    terms: [{ value: 'husova', mode: 'prefix' }],
    contextIds: null,
    postalPrefix: null,
    size: 300,
    near: { ...at, km: NEAR_KM },
  };

  beforeAll(async () => {
    const store = new SqlitePlacesStore(file);
    await store.init();
    const { far, near: close } = aroundFixtureDocs();
    await store.upsert([...far, ...close]);
    await store.close();
  });

  it('keeps the written join order under statistics that favour another', () => {
    const db = new Database(file);
    try {
      favourCountryIndex(db);
      const plan = (sql: string, params: unknown[]) => queryPlan(db, sql, params);
      const byMatches = buildSqliteNearSearch(near, near.near!, 'fts_address_cz', {}, 'matches');
      expect(plan(byMatches.sql, byMatches.params)).toEqual([
        'CO-ROUTINE n',
        // The matches (at most `scan` of them), then the R*Tree by id (index 1), one lookup per match.
        'CO-ROUTINE f',
        expect.stringMatching(/^SCAN fts_address_cz VIRTUAL TABLE INDEX 0:M/),
        'SCAN f',
        expect.stringMatching(/^SCAN r VIRTUAL TABLE INDEX 1:/),
        'SEARCH p USING INTEGER PRIMARY KEY (rowid=?)',
        'USE TEMP B-TREE FOR ORDER BY',
        'SCAN n',
        'SEARCH p USING INTEGER PRIMARY KEY (rowid=?)',
      ]);
      const byBox = buildSqliteNearSearch(near, near.near!, 'fts_address_cz', {}, 'box');
      // The statistics do provoke a bad plan for the same joins unpinned: every CZ address, each looked up in the R*Tree.
      expect(plan(byBox.sql.replace(/ CROSS JOIN /g, ' JOIN '), byBox.params)[1]).toMatch(/^SEARCH p USING INDEX places_country_object/);
      expect(plan(byBox.sql, byBox.params)).toEqual([
        'CO-ROUTINE n',
        // The box (index 2: four range constraints), the matches gathered into a list once.
        expect.stringMatching(/^SCAN r VIRTUAL TABLE INDEX 2:/),
        'LIST SUBQUERY 1',
        expect.stringMatching(/^SCAN fts_address_cz VIRTUAL TABLE INDEX 0:M/),
        expect.stringMatching(/BLOOM FILTER/),
        'SEARCH p USING INTEGER PRIMARY KEY (rowid=?)',
        'USE TEMP B-TREE FOR ORDER BY',
        'SCAN n',
        'SEARCH p USING INTEGER PRIMARY KEY (rowid=?)',
      ]);
      const count = buildSqliteMatchCount(near, 'fts_address_cz', {}, 3000);
      expect(db.prepare(count.sql).pluck().get(...count.params)).toBe(401);
    } finally {
      db.close();
    }
  });

  it('gives the same candidates, nearest first, by either plan', async () => {
    const store = new SqlitePlacesStore(file, 'reader');
    await store.init();
    try {
      const byMatches = await store.candidates(near);
      store.nearByMatches = 1;
      const byBox = await store.candidates(near);
      // Within NEAR_KM of Olomouc: only its own Husova (the others are 100 km and more away).
      expect(byMatches.map((d) => d.place_id)).toEqual(['cz_a71000001']);
      expect(byBox).toEqual(byMatches);
      const wide = { ...near, near: { ...at, km: 400 } };
      const wideBox = await store.candidates(wide);
      store.nearByMatches = 10_000;
      const wideMatches = await store.candidates(wide);
      expect(wideBox.map((d) => d.place_id)).toEqual(wideMatches.map((d) => d.place_id));
      expect(wideMatches.length).toBe(300);
      expect(wideMatches[0].place_id).toBe('cz_a71000001');
      // Nearest first: the rest by their distance from the point.
      const km = (d: { lat: number | null; lng: number | null }) => Math.hypot(d.lat! - at.lat, (d.lng! - at.lng) * Math.cos((at.lat * Math.PI) / 180));
      const distances = wideMatches.map(km);
      expect([...distances].sort((a, b) => a - b)).toEqual(distances);
      // Through the service, by the box plan: the address near the point first.
      store.nearByMatches = 1;
      const svc = new PlacesSearchService(store);
      const husova = () => svc.query(parseRequest(PlaceQueryRequest, { query: 'Husova', around_latlng: `${at.lat},${at.lng}` }));
      expect((await husova())[0].formatted_address).toBe('Husova 960/5, 779 00 Olomouc');
      // More text matches than a near search gathers: the store's near query gives none; the service
      // then reads the address points around the point (nearFallbackQuery), and the near one still wins.
      store.nearScan = 400;
      expect(await store.candidates(wide)).toEqual([]);
      expect((await husova())[0].formatted_address).toBe('Husova 960/5, 779 00 Olomouc');
      store.nearScan = 401;
      expect((await store.candidates(wide)).length).toBe(300);
    } finally {
      await store.close();
    }
  });
});
