import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseRequest, PlaceQueryRequest, PlaceReverseRequest } from '@lookup/contracts';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../domain/place.doc';
import { PlacesSearchService } from '../search/places-search.service';
import { address, municipality, street, wholeNumberAddress } from '../search/testing/search-fixtures';
import { VersionScope } from './places.store';
import { SqlitePlacesStore } from './sqlite-places.store';

/**
 * A new version that starts as a page copy of the live file (the scope's rows then deleted) must
 * leave exactly the file the row-by-row carry leaves: the same rows, the same answers. Two stores
 * get the same versions, one made to copy (copyLiveAbove 0) and one made to carry row by row.
 */
describe('SQLite version built from a copy of the live file', () => {
  const dir = tempDir('sqlite-copy-build-');
  afterAll(() => dir.remove());

  let copying: SqlitePlacesStore;
  let carrying: SqlitePlacesStore;

  const czech = (): PlaceDoc[] => {
    const docs: PlaceDoc[] = [municipality('opava'), municipality('olomouc'), street('opava', 'Lihovarská'), street('olomouc', 'Horní náměstí')];
    for (let i = 1; i <= 150; i++) docs.push(address('opava', 'Lihovarská', String(i), { adm: 30_000_000 + i, dLat: i * 1e-4 }));
    for (let i = 1; i <= 150; i++) docs.push(address('olomouc', 'Horní náměstí', String(i), { adm: 31_000_000 + i, dLng: i * 1e-4 }));
    return docs;
  };
  const slovak = (streetName: string): PlaceDoc[] => [municipality('kosice'), street('kosice', streetName), address('kosice', streetName, '5', { adm: 5 }), address('kosice', streetName, '7', { adm: 7 })];
  const liechtenstein = (streetName: string, numbers: string[]): PlaceDoc[] => [municipality('vaduz'), street('vaduz', streetName), ...numbers.map((n) => wholeNumberAddress('vaduz', streetName, n))];

  async function version(store: SqlitePlacesStore, scope: VersionScope, docs: PlaceDoc[]): Promise<{ carried: number; count: number }> {
    const build = await store.beginVersion(scope);
    try {
      await build.load((async function* () {
        yield docs;
      })());
      await build.seal();
      const count = await build.count();
      await build.commit();
      return { carried: build.carried, count };
    } catch (err) {
      await build.abort();
      throw err;
    }
  }

  /** Both stores through the same version; returns which start each took. */
  async function both(scope: VersionScope, docs: () => PlaceDoc[]): Promise<Array<string | null>> {
    const given = docs();
    const a = await version(copying, scope, given);
    const b = await version(carrying, scope, given);
    expect(a).toEqual(b);
    return [copying.lastBuildStart, carrying.lastBuildStart];
  }

  const rows = (store: SqlitePlacesStore) => {
    const db = new Database(store.source.file, { readonly: true });
    try {
      return db.prepare('SELECT place_id, country, object, name, region_id, county_id, municipality_id, postal_code, doc FROM places ORDER BY place_id').all();
    } finally {
      db.close();
    }
  };
  /**
   * The indexes as the documents they point at: per full-text table and term, how many rows match
   * and whose they are; the R*Tree's entries by place_id (rids differ between the two files, and a
   * stale entry would point at no row or at another country's).
   */
  const indexes = (store: SqlitePlacesStore) => {
    const db = new Database(store.source.file, { readonly: true });
    try {
      const fts: Record<string, unknown> = {};
      const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(tokens%'`).pluck().all() as string[]).sort();
      for (const t of tables) {
        for (const term of db.prepare(`SELECT term FROM ${t}_vocab ORDER BY term`).pluck().all() as string[]) {
          const match = `"${term.replace(/"/g, '""')}"`;
          const raw = (db.prepare(`SELECT count(*) FROM ${t} WHERE ${t} MATCH ?`).pluck().get(match) as number) ?? 0;
          if (raw === 0) continue;
          const ids = db.prepare(`SELECT d.place_id FROM ${t} f JOIN places d ON d.rid = f.rowid WHERE ${t} MATCH ? ORDER BY d.place_id`).pluck().all(match);
          fts[`${t} ${term}`] = [raw, ids];
        }
      }
      const rtree = db.prepare('SELECT d.place_id, r.min_lat, r.min_lng FROM places_rtree r LEFT JOIN places d ON d.rid = r.id ORDER BY d.place_id').all();
      return { fts, rtree };
    } finally {
      db.close();
    }
  };
  const texts = async (store: SqlitePlacesStore, query: string, country: string) =>
    (await new PlacesSearchService(store).query(parseRequest(PlaceQueryRequest, { query, country }))).map((p) => `${p.place_id} ${p.formatted_address}`);
  const reverse = async (store: SqlitePlacesStore, lat: number, lng: number) =>
    (await new PlacesSearchService(store).reverse(parseRequest(PlaceReverseRequest, { lat: String(lat), lng: String(lng) }))).map((p) => p.place_id);

  /** The same rows, and the same answers to searches and reverse lookups of every country. */
  async function expectSame(): Promise<void> {
    expect(rows(copying)).toEqual(rows(carrying));
    expect(indexes(copying)).toEqual(indexes(carrying));
    for (const [query, country] of [
      ['Lihovarská 12', 'CZ'],
      ['Horní náměstí 1', 'CZ'],
      ['Olomouc', 'CZ'],
      ['Hlavná 5', 'SK'],
      ['Mlynská 7', 'SK'],
      ['Košice', 'SK'],
      ['Städtle 3', 'LI'],
      ['Aeulestrasse 2', 'LI'],
      ['Vaduz', 'LI'],
    ]) {
      expect(await texts(copying, query, country)).toEqual(await texts(carrying, query, country));
    }
    for (const [lat, lng] of [
      [49.95, 17.9026],
      [48.6742, 21.2867],
      [47.141, 9.5209],
    ]) {
      expect(await reverse(copying, lat, lng)).toEqual(await reverse(carrying, lat, lng));
    }
  }

  beforeAll(async () => {
    copying = new SqlitePlacesStore(join(dir.path, 'copying.sqlite'));
    carrying = new SqlitePlacesStore(join(dir.path, 'carrying.sqlite'));
    await copying.init();
    await carrying.init();
    copying.copyLiveAbove = 0;
    carrying.copyLiveAbove = Number.POSITIVE_INFINITY;
    // An empty file has nothing to copy beside the country: both carry row by row.
    expect(await both({ country: 'CZ', replace: 'all' }, czech)).toEqual(['rows', 'rows']);
  });
  afterAll(async () => {
    await copying.close();
    await carrying.close();
  });

  it('a small country beside a big one: copied, and the same file as carried row by row', async () => {
    expect(await both({ country: 'LI', replace: 'all' }, () => liechtenstein('Städtle', ['1', '2', '3']))).toEqual(['copy', 'rows']);
    await expectSame();
    expect(await texts(copying, 'Städtle 3', 'LI')).toEqual([expect.stringMatching(/^li_a\d+ Städtle 3, 9490 Vaduz$/)]);

    // Its next version replaces it: the old street's words and points are gone, the new ones found.
    expect(await both({ country: 'LI', replace: 'all' }, () => liechtenstein('Aeulestrasse', ['2', '4']))).toEqual(['copy', 'rows']);
    await expectSame();
    expect(await texts(copying, 'Städtle 3', 'LI')).toEqual([]);
    expect(await texts(copying, 'Aeulestrasse 2', 'LI')).toEqual([expect.stringMatching(/Aeulestrasse 2, 9490 Vaduz$/)]);
    // The copied country answers as before (12 first, then the numbers it begins: 120-125).
    expect((await texts(copying, 'Lihovarská 12', 'CZ'))[0]).toBe('cz_a30000012 Lihovarská 12, 746 01 Opava');
  });

  it('one layer replaced and the kept rows rewritten (a catalogue import re-links the addresses): the same file both ways', async () => {
    expect(await both({ country: 'SK', replace: 'all' }, () => slovak('Hlavná'))).toEqual(['copy', 'rows']);
    const relink = (d: PlaceDoc): PlaceDoc => ({ ...d, county: 'Košice IV (renamed)' });
    // The streets replaced, the addresses kept and re-linked through `carry`.
    const counts = await both({ country: 'SK', replace: ['street', 'municipality'], carry: relink }, () => slovak('Mlynská').filter((d) => d.object !== 'address'));
    expect(counts).toEqual(['copy', 'rows']);
    await expectSame();
    const sk = (rows(copying) as Array<{ country: string; object: string; doc: string }>).filter((r) => r.country === 'SK');
    expect(sk.map((r) => r.object).sort()).toEqual(['address', 'address', 'municipality', 'street']);
    expect(sk.filter((r) => r.object === 'address').every((r) => r.doc.includes('Košice IV (renamed)'))).toBe(true);
  });

  it('the country that is most of the file is carried row by row, not copied', async () => {
    expect(await both({ country: 'CZ', replace: 'all' }, czech)).toEqual(['rows', 'rows']);
    await expectSame();
  });

  it('an aborted copy leaves the live file serving and no build file behind', async () => {
    const before = rows(copying);
    const build = await copying.beginVersion({ country: 'LI', replace: 'all' });
    expect(copying.lastBuildStart).toBe('copy');
    await build.load((async function* () {
      yield liechtenstein('Herrengasse', ['9']);
    })());
    await build.abort();
    expect(existsSync(`${copying.source.file}.import`)).toBe(false);
    expect(rows(copying)).toEqual(before);
    expect(await texts(copying, 'Aeulestrasse 2', 'LI')).toEqual([expect.stringMatching(/Aeulestrasse 2, 9490 Vaduz$/)]);
  });
});
