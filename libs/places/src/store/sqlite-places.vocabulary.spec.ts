import { join } from 'node:path';
import Database from 'better-sqlite3';
import { COUNTRY_CODES, parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { tempDir } from '@lookup/shared/testing';
import { CandidateQuery, TermClause } from '../search/candidate-query';
import { candidateQuery, planSearch, SearchKind } from '../search/search-plan';
import { buildSqliteSearch } from '../search/sqlite-query.builder';
import { ftsTableName } from './sqlite-places.schema';
import { address, searchFixtureDocs, street } from '../search/testing/search-fixtures';
import { TypoTerm, vocabularyExpansions, vocabularyHasAll } from '../search/typo-prefix';
import { decodeDoc, SqlitePlacesStore } from './sqlite-places.store';

/**
 * The SQLite store leaves FTS5 out when a term of the query matches no word of the table
 * (vocabularyHasAll): the same candidates as asking FTS5 every time, over every typed prefix of
 * texts that match, partly match, have typos or match nothing, in both passes and all kinds.
 */
describe('SQLite candidates: a query with a word the table lacks is not sent to FTS5', () => {
  const dir = tempDir('sqlite-vocabulary-');
  afterAll(() => dir.remove());
  const file = join(dir.path, 'places.sqlite');
  let store: SqlitePlacesStore;
  let raw: Database.Database;

  beforeAll(async () => {
    store = new SqlitePlacesStore(file);
    await store.init();
    await store.upsert(searchFixtureDocs());
    raw = new Database(file, { readonly: true });
  });
  afterAll(async () => {
    raw.close();
    await store.close();
  });

  const vocabularies = new Map<string, string[]>();
  const vocabulary = (fts: string) => {
    if (!vocabularies.has(fts)) {
      const terms = (raw.prepare(`SELECT term FROM ${fts}_vocab`).all() as Array<{ term: string }>).map((r) => r.term);
      vocabularies.set(fts, terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return vocabularies.get(fts) as string[];
  };

  /** What FTS5 finds for the query when always asked, and whether the check would have skipped a table. */
  function askedEveryTime(q: CandidateQuery): { ids: string[]; skipped: boolean } {
    const typos = q.terms.filter((t): t is TermClause & TypoTerm => t.mode === 'fuzzy' || t.mode === 'fuzzyPrefix');
    const ids: string[] = [];
    let skipped = false;
    const countries = q.countries?.length ? q.countries : COUNTRY_CODES;
    for (const fts of new Set(q.objects.flatMap((o) => countries.map((c) => ftsTableName('country', o === 'address' ? 'address' : 'area', c))))) {
      const expansions = typos.length ? vocabularyExpansions(typos, vocabulary(fts)) : {};
      if (!vocabularyHasAll(q.terms, vocabulary(fts), expansions)) skipped = true;
      const req = buildSqliteSearch(q, fts, expansions);
      if (!req) continue;
      for (const r of raw.prepare(req.sql).all(...req.params) as Array<{ doc: string }>) ids.push(decodeDoc(r.doc).place_id);
    }
    return { ids: ids.sort(), skipped };
  }

  it('finds what FTS5 finds, and leaves it out for a good share of what users type', async () => {
    const texts = [
      'Lihovarská 79/22a, 746 01 Opava', 'Krásná 5 Olomouc', 'Hauptstrasse 12/3/5', 'zurich', 'Podvihov č. ev. 59', 'opava 12',
      'Lihovarka 79 Opava', 'Lihovraská 7', 'Olomuc', 'Cihelní 265, Branka u Opavy', 'Xyzstraße 12', 'Praha 4 Nusle', '746 01', '74741 Branka',
    ];
    const kinds: SearchKind[] = ['query', 'street', 'municipality', 'postal'];
    let compared = 0;
    let skippedEmpty = 0;
    let found = 0;
    for (const text of texts)
      for (let n = 2; n <= text.length; n++)
        for (const kind of kinds) {
          const plan = planSearch(kind, parseRequest(PlaceQueryRequest, { query: text.slice(0, n) }));
          if (plan.tokens.length === 0) continue;
          for (const pass of ['strict', 'fuzzy'] as const) {
            const q = candidateQuery(plan, pass);
            const want = askedEveryTime(q);
            const got = (await store.candidates(q)).map((d) => d.place_id).sort();
            expect([text.slice(0, n), kind, pass, got]).toEqual([text.slice(0, n), kind, pass, want.ids]);
            compared++;
            if (want.skipped && want.ids.length === 0) skippedEmpty++;
            if (want.ids.length > 0) found++;
          }
        }
    expect(compared).toBeGreaterThan(1000);
    expect(found).toBeGreaterThan(200);
    expect(skippedEmpty).toBeGreaterThan(200);
  });

  it('sees a word another connection committed since its vocabulary was read, in the same turn of the event loop', async () => {
    const reader = new SqlitePlacesStore(file, 'reader');
    await reader.init();
    try {
      const zvonarka = (pass: 'strict' | 'fuzzy') => candidateQuery(planSearch('query', parseRequest(PlaceQueryRequest, { query: 'Zvonařka 3' })), pass);
      // The typo pass reads the vocabulary; the word is not in it yet.
      expect(await reader.candidates(zvonarka('fuzzy'))).toEqual([]);
      expect(await reader.candidates(zvonarka('strict'))).toEqual([]);
      // No timer or I/O in between: the same turn.
      await store.upsert([street('opava', 'Zvonařka'), address('opava', 'Zvonařka', '3')]);
      expect((await reader.candidates(zvonarka('strict'))).map((d) => d.name)).toContain('Zvonařka 3');
    } finally {
      await reader.close();
    }
  });

  it('leaves FTS5 out once the vocabulary is in memory, and reads it only for a typo pass', async () => {
    const fresh = new SqlitePlacesStore(join(dir.path, 'fresh.sqlite'));
    await fresh.init();
    await fresh.upsert(searchFixtureDocs());
    // Every statement's all(), the store's included: the full-text queries among them.
    const statement = Object.getPrototypeOf(raw.prepare('SELECT 1')) as { all: (...a: unknown[]) => unknown[] };
    const all = jest.spyOn(statement, 'all');
    const ftsCalls = () => all.mock.contexts.filter((c) => String((c as { source?: string }).source).includes(' MATCH ')).length;
    // One country: one full-text table per kind (without a country, one per kind and country).
    const plan = (text: string, pass: 'strict' | 'fuzzy') => candidateQuery(planSearch('query', parseRequest(PlaceQueryRequest, { query: text, country: 'CZ' })), pass);
    try {
      // No vocabulary in memory yet: a strict pass asks FTS5 (and does not read the vocabulary).
      expect(await fresh.candidates(plan('Xyzstrasse 12', 'strict'))).toEqual([]);
      expect(ftsCalls()).toBe(1);
      // A typo pass reads it; its words match nothing, so FTS5 is not asked.
      expect(await fresh.candidates(plan('Xyzstrasse 12', 'fuzzy'))).toEqual([]);
      expect(all.mock.contexts.some((c) => String((c as { source?: string }).source).includes('_vocab'))).toBe(true);
      expect(ftsCalls()).toBe(1);
      // Now a strict pass with a word no document has is not sent either; one that can match is.
      expect(await fresh.candidates(plan('Xyzstrasse 12', 'strict'))).toEqual([]);
      expect(ftsCalls()).toBe(1);
      expect((await fresh.candidates(plan('Lihovarská 79', 'strict'))).length).toBeGreaterThan(0);
      expect(ftsCalls()).toBe(2);
    } finally {
      all.mockRestore();
      await fresh.close();
    }
  });
});
