import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { DomainError, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest } from '@lookup/contracts';
import { metrics } from '@lookup/shared/metrics';
import { RawJson } from '@lookup/shared/transport';
import { tempDir } from '@lookup/shared/testing';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { PlacesStore } from '../store/places.store';
import { PlacesSearchService } from './places-search.service';
import { PlacesSearchHandlers } from './places-search.handlers';
import { QuietCheck, SearchThreads } from './search-threads';
import { sqliteTestStore } from './testing/test-stores';
import { placesSearchContract } from './testing/places-search.contract';
import { address, searchFixtureDocs, street } from './testing/search-fixtures';

/**
 * The standalone engine with its searches on worker threads (what `npm start` runs): the whole
 * shared contract through the threads, then what only threads have: versions swapped under
 * them, writes seen, errors, a dead thread, the timeout and the main thread's metrics.
 */
const pools: SearchThreads[] = [];
/** Stops the threads started so far, before their files go. */
const closePools = async (): Promise<void> => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
};
afterAll(closePools);

function threaded(store: PlacesStore, size = 2, timeoutMs?: number, inlineBelowMs?: number, quiet?: QuietCheck, loadMs?: number): { service: PlacesSearchService; threads: SearchThreads } {
  const threads = new SearchThreads(() => (store as SqlitePlacesStore).source, size, timeoutMs, inlineBelowMs, quiet, undefined, loadMs);
  pools.push(threads);
  return { service: new PlacesSearchService(store, undefined, undefined, threads), threads };
}

placesSearchContract('sqlite, search threads', ...sqliteTestStore('search-threads'), (s) => threaded(s).service);

describe('search threads', () => {
  const dir = tempDir('search-threads-');
  afterAll(() => closePools().then(() => dir.remove())); // a thread still searching must not find its file gone
  let store: SqlitePlacesStore;
  let here: PlacesSearchService;
  let service: PlacesSearchService;
  let threads: SearchThreads;
  const query = (s: PlacesSearchService, q: string) => s.query(parseRequest(PlaceQueryRequest, { query: q }));
  const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street);

  beforeAll(async () => {
    store = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await store.init();
    await store.upsert(searchFixtureDocs());
    here = new PlacesSearchService(store);
    ({ service, threads } = threaded(store));
  });
  afterAll(() => store.close());

  it('starts its threads with the first search, or at start()', async () => {
    const { threads } = threaded(store);
    expect(threads.running).toBe(0);
    threads.start();
    threads.start();
    expect(threads.running).toBe(2);
  });

  it('gives the answers of the main thread, also for many searches at once', async () => {
    const queries = ['Lihov', 'Lihovarská 79/22a', 'opava 12', 'Lihovarka 79', 'Krásná 5', 'Hauptstrasse 12/3/5', 'Podvihov č. ev. 59', 'zurich'];
    const expected = await Promise.all(queries.map((q) => query(here, q)));
    expect(expected.some((r) => r.length > 0)).toBe(true);
    const rounds = await Promise.all(Array.from({ length: 5 }, () => Promise.all(queries.map((q) => query(service, q)))));
    for (const got of rounds) expect(got).toEqual(expected);
  });

  it('answers a transport request with the JSON text of the same places (encoded on the thread), reverse too', async () => {
    const queries = ['Lihov', 'Lihovarská 79/22a', 'opava 12', 'zurich'];
    for (const q of queries) {
      const dto = parseRequest(PlaceQueryRequest, { query: q });
      const objects = await query(here, q);
      const answered = await service.answer('query', dto);
      expect(answered).toBeInstanceOf(RawJson);
      expect(Buffer.from((answered as RawJson).bytes).toString()).toBe(JSON.stringify(objects));
      // Without threads, the objects themselves.
      expect(await here.answer('query', dto)).toEqual(objects);
    }
    const near = parseRequest(PlaceReverseRequest, { lat: '49.9387', lng: '17.9026', distinct: '60' });
    const reversed = await service.answerReverse(near);
    expect((reversed as RawJson).value()).toEqual(JSON.parse(JSON.stringify(await here.reverse(near))));
    expect((await here.reverse(near)).length).toBeGreaterThan(0);
    // The message handlers (what a transport request reaches) answer this way.
    const handlers = new PlacesSearchHandlers(service);
    const viaHandler = await handlers.query(parseRequest(PlaceQueryRequest, { query: 'Lihovarská 79/22a' }));
    expect(viaHandler).toBeInstanceOf(RawJson);
    expect((viaHandler as RawJson).value()).toEqual(JSON.parse(JSON.stringify(await query(here, 'Lihovarská 79/22a'))));
    expect(await handlers.reverse(near)).toBeInstanceOf(RawJson);
  });

  it('posts the searches of one turn to a thread as one message, and answers each on its own', async () => {
    const { service: fresh, threads: pool } = threaded(store, 2);
    pool.start();
    const workers = (pool as unknown as { threads: Array<{ worker: Worker }> }).threads.map((t) => t.worker);
    const posted: unknown[][] = [];
    for (const w of workers) {
      const post = w.postMessage.bind(w);
      jest.spyOn(w, 'postMessage').mockImplementation((batch: unknown) => {
        posted.push(batch as unknown[]);
        post(batch);
      });
    }
    const queries = ['Lihov', 'opava 12', 'Krásná 5', 'zurich', 'Lihovarská 79/22a'];
    const expected = await Promise.all(queries.map((q) => query(here, q)));
    // Started in one turn: five searches, two threads, so two messages (3 + 2); the answers each their own.
    const got = await Promise.all(queries.map((q) => query(fresh, q)));
    expect(got).toEqual(expected);
    expect(posted.map((b) => b.length).sort()).toEqual([2, 3]);
    // Plus an error in a batch: it fails its own search only.
    const mixed = await Promise.allSettled([query(fresh, 'opava 12'), fresh.reverse({ jtskX: -1100000 } as PlaceReverseRequest), query(fresh, 'zurich')]);
    expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((mixed[0] as PromiseFulfilledResult<Place[]>).value).toEqual(expected[1]);
    expect((mixed[2] as PromiseFulfilledResult<Place[]>).value).toEqual(expected[3]);
    expect(posted).toHaveLength(4);
  });

  it('keeps cheap searches on a thread that is working, and spreads dear ones, or ones behind a thread that is stuck', async () => {
    const { service: fresh, threads: pool } = threaded(store, 2);
    pool.start();
    const internal = pool as unknown as { threads: Array<{ worker: Worker; progressAt: number }> };
    const perThread = internal.threads.map(() => 0);
    internal.threads.forEach((t, i) => {
      const post = t.worker.postMessage.bind(t.worker);
      jest.spyOn(t.worker, 'postMessage').mockImplementation((batch: unknown) => {
        perThread[i] += (batch as unknown[]).length;
        post(batch);
      });
    });
    const queries = ['Lihov', 'opava 12', 'Krásná 5', 'zurich'];
    const expected = await Promise.all(queries.map((q) => query(here, q)));
    const round = async (costMs: number) => {
      perThread.fill(0);
      // What searches have cost lately (a moving average: many notes settle it).
      for (let i = 0; i < 200; i++) pool.noteCost(costMs);
      expect(await Promise.all(queries.map((q) => query(fresh, q)))).toEqual(expected);
      return [...perThread];
    };
    // When the working thread last showed progress, as the rule sees it: fixed here, so that a
    // loaded machine's gaps between the four dispatches (over 0.5 ms under a parallel test run)
    // do not make a working thread look stuck.
    const lastProgress = (ageMs: number, thread = 0) => Object.defineProperty(internal.threads[thread], 'progressAt', { get: () => performance.now() - ageMs, set: () => undefined, configurable: true });
    try {
      lastProgress(0);
      // 0.05 ms a search: four in flight are 0.2 ms of work, within the bound (0.5 ms): one thread.
      expect(await round(0.05)).toEqual([4, 0]);
      // 2 ms a search: the second goes to the idle thread.
      expect(await round(2)).toEqual([2, 2]);
      // Cheap, but the working thread has answered nothing for 10 ms: the others go to the idle one.
      lastProgress(10);
      // The idle one, once it has a search, is working as of then (else a gap of over 0.5 ms
      // between two dispatches on a loaded machine would make it look stuck too).
      lastProgress(0, 1);
      expect(await round(0.05)).toEqual([1, 3]);
    } finally {
      for (const t of internal.threads) {
        delete (t as Partial<{ progressAt: number }>).progressAt;
        t.progressAt = 0;
      }
    }
  });

  it('sees documents written after it opened the file, in the typo pass too', async () => {
    expect(await query(service, 'Zvonařka 3')).toEqual([]);
    await store.upsert([street('opava', 'Zvonařka'), address('opava', 'Zvonařka', '3')]);
    expect(texts(await query(service, 'Zvonařka 3'))).toEqual(['Zvonařka 3, 746 01 Opava']);
    // A word only the new document has, misspelt: the typo pass's vocabulary was read again.
    expect(texts(await query(service, 'Zvonarska 3'))).toEqual(['Zvonařka 3, 746 01 Opava']);
    expect(await query(here, 'Zvonarska 3')).toEqual(await query(service, 'Zvonarska 3'));
  });

  it('reads the new version once the pipeline has swapped it in', async () => {
    expect(texts(await query(service, 'Lihovarská 79/22a'))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
    const build = await store.beginVersion({ country: 'CZ', replace: ['address'] });
    async function* batches() {
      yield [address('opava', 'Nová', '1')];
    }
    await build.load(batches());
    await build.seal();
    // Built beside the live file: nothing of it shows before the commit.
    expect(await query(service, 'Nová 1')).toEqual([]);
    await build.commit();
    expect(texts(await query(service, 'Nová 1 Opava'))).toEqual(['Nová 1, 746 01 Opava']);
    expect(await query(service, 'Lihovarská 79/22a')).toEqual([]);
    expect(await query(service, 'Nová 1 Opava')).toEqual(await query(here, 'Nová 1 Opava'));
  });

  it('answers searches while a new version is being sealed (indexes built off the event loop)', async () => {
    const build = await store.beginVersion({ country: 'CZ', replace: ['address'] });
    async function* batches() {
      for (let b = 0; b < 8; b++) yield Array.from({ length: 5000 }, (_, i) => address('opava', `Ulice ${(b * 5000 + i) % 700}`, String(i + 1)));
    }
    await build.load(batches());
    let sealed = false;
    const sealing = build.seal().then(() => (sealed = true));
    // On this thread and on the search threads: answered from the live version before the seal is done.
    expect(texts(await query(here, 'Nová 1 Opava'))).toEqual(['Nová 1, 746 01 Opava']);
    expect(texts(await query(service, 'Nová 1 Opava'))).toEqual(['Nová 1, 746 01 Opava']);
    expect(sealed).toBe(false);
    await sealing;
    await build.abort();
  });

  it('passes errors back with their type and parameter', async () => {
    // Past validation (as a message would arrive), so the thread's search is what refuses it.
    const err = await service.reverse({ jtskX: -1100000 } as PlaceReverseRequest).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).toEnvelope()).toMatchObject({ status: 400, type: 'missing_parameter', param: 'jtskY' });
  });

  it('records the engine time of a search on the main thread', async () => {
    const count = async () => {
      const m = await metrics().engineDuration.get();
      return m.values.filter((v) => v.metricName?.endsWith('_count') && v.labels['engine'] === 'sqlite' && v.labels['operation'] === 'places.candidates').reduce((a, v) => a + v.value, 0);
    };
    const before = await count();
    // Timed on a thread, not here: this thread's timer must not be what records it.
    const own = service.timeEngine;
    service.timeEngine = () => Promise.reject(new Error('timed on the main thread'));
    try {
      await query(service, 'Opava 1');
    } finally {
      service.timeEngine = own;
    }
    expect(await count()).toBeGreaterThan(before);
  });

  it('replaces a thread that died and answers on', async () => {
    const first = (threads as unknown as { threads: Array<{ worker: { terminate(): Promise<number> } }> }).threads[0];
    await first.worker.terminate();
    const answers = await Promise.all(Array.from({ length: 6 }, () => query(service, 'Nová 1 Opava')));
    for (const a of answers) expect(texts(a)).toEqual(['Nová 1, 746 01 Opava']);
    const now = (threads as unknown as { threads: unknown[] }).threads;
    expect(now).toHaveLength(2);
    expect(now).not.toContain(first);
  });

  it('answers 504 when a thread does not answer in time, its load included', async () => {
    // A new thread's first search waits for it to load its modules and open the file: far more than 1 + 1 ms.
    const slow = threaded(store, 1, 1, undefined, undefined, 1).service;
    const err = await query(slow, 'Opava').catch((e: unknown) => e);
    expect((err as DomainError).toEnvelope()).toMatchObject({ status: 504, type: 'timeout' });
  });

  it('gives a search sent to a thread still loading the load time on top of its own timeout', async () => {
    // The same 1 ms for the search, with the default time to load: the first search is answered.
    const { service: loading, threads: pool } = threaded(store, 1, 1);
    pool.start();
    expect((pool as unknown as { threads: Array<{ isLoaded: boolean }> }).threads[0].isLoaded).toBe(false);
    expect(texts(await query(loading, 'Nová 1 Opava'))).toEqual(['Nová 1, 746 01 Opava']);
  });

  it('ready(): starts the threads and says when each has loaded and opened the file, or that it waited long enough', async () => {
    const { threads: pool } = threaded(store, 2);
    expect(await pool.ready(0)).toBe(false);
    expect(pool.running).toBe(2);
    expect(await pool.ready()).toBe(true);
    for (const t of (pool as unknown as { threads: Array<{ isLoaded: boolean }> }).threads) expect(t.isLoaded).toBe(true);
  });
});

describe('search threads: a cheap search while nothing else is under way runs on the calling thread', () => {
  const dir = tempDir('search-inline-');
  afterAll(() => closePools().then(() => dir.remove())); // a thread still searching must not find its file gone
  let store: SqlitePlacesStore;
  const dto = (q: string) => parseRequest(PlaceQueryRequest, { query: q });
  const nextTurn = () => new Promise<void>((r) => setImmediate(r));

  beforeAll(async () => {
    store = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await store.init();
    await store.upsert(searchFixtureDocs());
  });
  afterAll(() => store.close());

  it('sends searches to the threads until one has shown what they cost, then runs them here, one per turn, with the same answers as JSON text', async () => {
    const { service, threads } = threaded(store, 2, undefined, 1000, () => true);
    const sent = jest.spyOn(threads, 'runJson');
    const onThread = await service.answer('query', dto('Lihovarská 79'));
    expect(sent).toHaveBeenCalledTimes(1);
    expect(onThread).toBeInstanceOf(RawJson);
    const expected = (onThread as RawJson).value() as Place[];
    expect(expected.length).toBeGreaterThan(0);
    await nextTurn();
    const cost = jest.spyOn(threads, 'noteCost');
    const here = await service.answer('query', dto('Lihovarská 79'));
    // Not sent to a thread, and answered as the threads answer (one kind of answer for the gateway).
    expect(sent).toHaveBeenCalledTimes(1);
    expect(here).toBeInstanceOf(RawJson);
    expect((here as RawJson).bytes.constructor).toBe(Uint8Array);
    // The search run here reported what it cost.
    expect(cost).toHaveBeenCalledTimes(1);
    expect(cost.mock.calls[0][0]).toBeGreaterThan(0);
    cost.mockRestore();
    expect((here as RawJson).value()).toEqual(expected);
    await nextTurn();
    // Two in one turn: the first here, the second on a thread.
    const [a, b] = [service.answer('query', dto('Lihovarská 79')), service.answer('query', dto('Lihovarská 79'))];
    expect(((await a) as RawJson).value()).toEqual(expected);
    expect(((await b) as RawJson).value()).toEqual(expected);
    expect(sent).toHaveBeenCalledTimes(2);
    sent.mockRestore();
  });

  it('sends a search whose typo pass would first read a large vocabulary to a thread, and runs it here once the vocabulary is in memory', async () => {
    const { service, threads } = threaded(store, 1, undefined, 1000, () => true);
    const typo = dto('Lihovrská 79'); // misspelt: only the typo pass finds it
    const expected = ((await service.answer('query', typo)) as RawJson).value() as Place[];
    expect(expected.map((p) => p.formatted_address)).toContain('Lihovarská 79/22a, 746 01 Opava');
    await nextTurn();
    const sent = jest.spyOn(threads, 'runJson');
    try {
      // As on a whole register: reading the vocabulary here would hold the main thread.
      store.cheapVocabularyBytes = 0;
      expect(store.typoPassReady(['address'])).toBe(false);
      expect(((await service.answer('query', typo)) as RawJson).value()).toEqual(expected);
      expect(sent).toHaveBeenCalledTimes(1);
      // ... and the main thread's store did not read it meanwhile.
      expect(store.typoPassReady(['address'])).toBe(false);
      // A search without a typo pass still runs here.
      await nextTurn();
      expect(((await service.answer('query', dto('Lihovarská 79'))) as RawJson).value()).toEqual(expected);
      expect(sent).toHaveBeenCalledTimes(1);
      // The file is small (the sample): reading it here is cheap, and the search runs here.
      store.cheapVocabularyBytes = Number.POSITIVE_INFINITY;
      await nextTurn();
      expect(((await service.answer('query', typo)) as RawJson).value()).toEqual(expected);
      expect(sent).toHaveBeenCalledTimes(1);
      // Now in memory: ready whatever the size.
      store.cheapVocabularyBytes = 0;
      expect(store.typoPassReady(['address'])).toBe(true);
    } finally {
      store.cheapVocabularyBytes = Number.POSITIVE_INFINITY;
      sent.mockRestore();
    }
  });

  it('never while a thread is busy, nor with the default limit (0), nor once searches cost more than the limit', async () => {
    const { threads } = threaded(store, 1, undefined, 1000, () => true);
    const busy = threads.runJson({ op: 'query', dto: dto('Lihovarská'), located: null });
    expect(threads.runsHere()).toBe(false);
    await busy;
    await nextTurn();
    expect(threads.runsHere()).toBe(true);

    const plain = threaded(store, 1, undefined, undefined, () => true);
    await plain.threads.runJson({ op: 'query', dto: dto('Lihovarská'), located: null });
    await nextTurn();
    expect(plain.threads.runsHere()).toBe(false);

    const tight = threaded(store, 1, undefined, 1e-6, () => true);
    await tight.threads.runJson({ op: 'query', dto: dto('Lihovarská'), located: null });
    await nextTurn();
    expect(tight.threads.runsHere()).toBe(false);
  });

  it('learns the cost of the searches it ran itself: a dear one sends the next ones to the threads', async () => {
    const { threads } = threaded(store, 1, undefined, 5, () => true);
    threads.start();
    threads.noteCost(0.1);
    expect(threads.runsHere()).toBe(true);
    await nextTurn();
    // A moving average: one search of 500 ms lifts it far past 5 ms.
    threads.noteCost(500);
    expect(threads.runsHere()).toBe(false);
  });

  it('never when the process is not quiet', async () => {
    let quiet = false;
    const { threads } = threaded(store, 1, undefined, 1000, () => quiet);
    await threads.runJson({ op: 'query', dto: dto('Lihovarská'), located: null });
    await nextTurn();
    expect(threads.runsHere()).toBe(false);
    quiet = true;
    expect(threads.runsHere()).toBe(true);
  });
});
