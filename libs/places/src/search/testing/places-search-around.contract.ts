import { parseRequest, Place, PlaceQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { PlaceDoc, placeId } from '../../domain/place.doc';
import { PlacesStore } from '../../store/places.store';
import { CandidateQuery, CANDIDATES } from '../candidate-query';
import { PlacesSearchService } from '../places-search.service';
import { address, street, TOWNS } from './search-fixtures';

/** The reviewer's point in Olomouc; its Husova lies 1.2 km north of it. */
const OLOMOUC = `${TOWNS.olomouc.lat},${TOWNS.olomouc.lng}`;
const FAR_TOWNS = ['osek', 'pisek', 'rancirov', 'frymburk'] as const;
const PER_TOWN = 100;

/** A one-word name per number (`Lhotaa`, `Lhotab`, ...): far streets of as many municipalities, none a word of another. */
const villageName = (i: number) => `Lhot${String.fromCharCode(97 + Math.floor(i / 26) % 26)}${String.fromCharCode(97 + (i % 26))}`;

/**
 * A common street name as the whole register has it: hundreds of `Husova` address points and
 * streets far from the point, written first (so they are the engines' first CANDIDATES in index
 * order), and one of each near the point, written last.
 */
export function aroundFixtureDocs(): { far: PlaceDoc[]; near: PlaceDoc[] } {
  const far: PlaceDoc[] = [];
  FAR_TOWNS.forEach((town, t) => {
    for (let n = 1; n <= PER_TOWN; n++) far.push(address(town, 'Husova', String(n), { dLat: n * 0.0001, adm: 70_000_000 + t * 1000 + n }));
  });
  for (let i = 0; i < CANDIDATES + 10; i++) {
    const name = villageName(i);
    const s = street('osek', 'Husova', 10);
    far.push({ ...s, place_id: placeId('CZ', 'street', `far-${i}`), municipality_id: placeId('CZ', 'municipality', 800_000 + i), municipality: name, lat: s.lat! + i * 0.001 });
  }
  const nearStreet = { ...street('olomouc', 'Husova', 10), lat: TOWNS.olomouc.lat + 0.0108 };
  const near = [address('olomouc', 'Husova', '960/5', { dLat: 0.0108, adm: 71_000_001 }), nearStreet];
  return { far, near };
}

/**
 * `around_latlng` brings the matches near the point to the top even when the text matches are
 * more than the engine returns (issue: `Husova` near Olomouc gave Husova in Klimkovice, 60 km
 * away): run unchanged against every engine, with the same expectations, on a store of its own.
 */
export function placesSearchAroundContract(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`places search near a point (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    const calls: CandidateQuery[] = [];
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? `${p.street}, ${p.municipality}`);

    beforeAll(async () => {
      store = await makeStore();
      const { far, near } = aroundFixtureDocs();
      await store.upsert(far);
      await store.upsert(near);
      // Every engine call seen, to tell how many a search made.
      const counted = countingStore(store, (method, arg) => method === 'candidates' && calls.push(arg as CandidateQuery));
      svc = new PlacesSearchService(counted);
    });

    afterAll(async () => {
      await dispose(store);
    });

    beforeEach(() => {
      calls.length = 0;
    });

    it('brings the address near the point first among hundreds of same-named ones far away', async () => {
      const r = await q({ query: 'Husova', around_latlng: OLOMOUC });
      expect(texts(r)[0]).toBe('Husova 960/5, 779 00 Olomouc');
      expect(r.length).toBe(7);
      // The text candidates, then the ones near the point: the engine's own list came back full.
      expect(calls.map((c) => !!c.near)).toEqual([false, true]);
    });

    it('does the same for the caller located by around_latlng_via_ip', async () => {
      const r = await svc.searchAt('query', parseRequest(PlaceQueryRequest, { query: 'Husova' }), { lat: TOWNS.olomouc.lat, lng: TOWNS.olomouc.lng });
      expect(texts(r)[0]).toBe('Husova 960/5, 779 00 Olomouc');
    });

    it('brings the street near the point first', async () => {
      const r = await svc.street(parseRequest(StreetQueryRequest, { query: 'Husova', around_latlng: OLOMOUC, limit: '3' }));
      expect(texts(r)[0]).toBe('Husova, Olomouc');
    });

    it('searches without a point as before: one engine call, the same answer', async () => {
      const r = await q({ query: 'Husova' });
      expect(calls.length).toBe(1);
      // Equal text matches: the shorter name, then the id, among the engine's first CANDIDATES (Osek's, written first).
      expect(texts(r)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Husova ${n}, 417 05 Osek`));
    });

    it('asks nothing more when the text candidates are all the matches there are', async () => {
      const r = await q({ query: 'Husova 5 ', around_latlng: OLOMOUC });
      expect(calls.length).toBe(1);
      expect(texts(r)[0]).toBe('Husova 960/5, 779 00 Olomouc');
    });
  });
}


const PREFIX_STREETS = ['Strmá', 'Strakonická', 'Stromovka', 'Strážní'] as const;

/**
 * A start of a word being typed (`St`, `Str`) as the whole register has it: more text matches far
 * away than SQLite reads near a point (NEAR_SCAN; a suite lowers the store's `nearScan` to these
 * few hundred), written first, and one `Strmá` 0.9 km from the point among address points of
 * another street nearer still, written last.
 */
export function aroundPrefixFixtureDocs(): { far: PlaceDoc[]; near: PlaceDoc[] } {
  const far: PlaceDoc[] = [];
  FAR_TOWNS.forEach((town, t) => {
    PREFIX_STREETS.forEach((name, s) => {
      for (let n = 1; n <= 40; n++) far.push(address(town, name, String(n), { dLat: n * 0.0001, dLng: s * 0.001, adm: 72_000_000 + t * 1000 + s * 100 + n }));
    });
  });
  const near: PlaceDoc[] = [];
  for (let n = 1; n <= 30; n++) near.push(address('olomouc', 'Palackého', String(n), { dLat: n * 0.0001, adm: 73_000_000 + n }));
  near.push(address('olomouc', 'Strmá', '7', { dLat: 0.008, adm: 73_000_100 }));
  return { far, near };
}

/**
 * `around_latlng` with the last word still being typed: the matches near the point are among
 * the candidates and come first, as for the whole word (issue: `Str` at Zlín gave `Strmá,
 * Ondřejov` 250 km away while Zlín has its own Strmá; `Horní` at Olomouc gave Horní Smržov).
 */
export function placesSearchAroundPrefixContract(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`places search near a point, a word being typed (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    let calls: string[] = [];
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? `${p.street}, ${p.municipality}`);

    beforeAll(async () => {
      store = await makeStore();
      const { far, near } = aroundPrefixFixtureDocs();
      await store.upsert(far);
      await store.upsert(near);
      const counted = countingStore(store, (method, arg) => calls.push(method === 'nearby' ? 'nearby' : (arg as CandidateQuery).near ? 'near' : 'text'));
      svc = new PlacesSearchService(counted);
    });

    afterAll(async () => {
      await dispose(store);
    });

    beforeEach(() => {
      calls = [];
    });

    it.each(['St', 'Str', 'Strm', 'Strmá'])('brings the match near the point first for %j', async (query) => {
      const r = await q({ query, around_latlng: OLOMOUC });
      expect(texts(r)[0]).toBe('Strmá 7, 779 00 Olomouc');
    });

    it('asks no more than the text query when it holds every match, nor without a point', async () => {
      await q({ query: 'Strmá', around_latlng: OLOMOUC });
      expect(calls).toEqual(['text']);
      calls = [];
      const r = await q({ query: 'Str' });
      expect(calls).toEqual(['text']);
      expect(texts(r)[0]).not.toBe('Strmá 7, 779 00 Olomouc');
    });
  });
}

/** The store, each engine call (`candidates`, `nearby`) told to `seen` first: how many calls a search made. */
function countingStore(store: PlacesStore, seen: (method: 'candidates' | 'nearby', arg: unknown) => unknown): PlacesStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'candidates') return (c: CandidateQuery) => (seen('candidates', c), target.candidates(c));
      if (key === 'nearby') return (n: Parameters<PlacesStore['nearby']>[0]) => (seen('nearby', n), target.nearby(n));
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
