/**
 * One search thread (see search-threads.ts): a read-only connection to the live SQLite file and
 * the same PlacesSearchService the main thread would run, answering one request at a time.
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { DomainError } from '@lookup/contracts';
import { SqlitePlacesStore, SqliteSource } from '../store/sqlite-places.store';
import { PlacesSearchService } from './places-search.service';
import { EngineTiming, ThreadBatch, ThreadLoaded, ThreadMessage, ThreadReply, ThreadStart } from './search-threads';

const log = new Logger('SearchThread');
let open: { source: SqliteSource; store: SqlitePlacesStore; service: PlacesSearchService } | null = null;
let timings: EngineTiming[] = [];
const encoder = new TextEncoder();

/** The service over the file the request names, reopened when a new version was swapped in. */
async function serviceFor(source: SqliteSource): Promise<PlacesSearchService> {
  if (open && open.source.file === source.file && open.source.generation === source.generation) return open.service;
  await open?.store.close();
  open = null;
  const store = new SqlitePlacesStore(source.file, 'reader');
  await store.init();
  const service = new PlacesSearchService(store, undefined, undefined, null);
  service.timeEngine = async (engine, operation, call) => {
    const t0 = process.hrtime.bigint();
    let outcome: EngineTiming['outcome'] = 'error';
    try {
      const out = await call();
      outcome = 'ok';
      return out;
    } finally {
      timings.push({ engine, operation, outcome, seconds: Number(process.hrtime.bigint() - t0) / 1e9 });
    }
  };
  open = { source, store, service };
  return service;
}

async function answer(m: ThreadMessage): Promise<ThreadReply> {
  timings = [];
  const t0 = performance.now();
  const ms = () => performance.now() - t0;
  try {
    const service = await serviceFor(m.source);
    const r = m.request;
    const places = r.op === 'reverse' ? await service.reverseHere(r.dto) : await service.searchAt(r.op, r.dto, r.located);
    if (m.json) {
      const json = encoder.encode(JSON.stringify(places));
      return { id: m.id, ok: true, json, timings, ms: ms() };
    }
    return { id: m.id, ok: true, places, timings, ms: ms() };
  } catch (err) {
    const error = err instanceof DomainError ? err : DomainError.internal();
    if (!(err instanceof DomainError)) log.error(`Search failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { id: m.id, ok: false, error: error.toEnvelope(), timings, ms: ms() };
  }
}

// One request at a time, in order: the engine is synchronous anyway, and the timings stay per request.
// First the file the thread was started on is opened (a request on another file reopens it), then
// the main thread hears that this one is loaded: the app waits for that before it serves.
const first = (workerData as ThreadStart | undefined)?.source ?? null;
let chain: Promise<void> = (first ? serviceFor(first).then(() => undefined) : Promise.resolve())
  .catch((err: unknown) => log.warn(`Could not open ${first?.file} ahead of the first search: ${err instanceof Error ? err.message : String(err)}`))
  .then(() => parentPort?.postMessage({ loaded: true } satisfies ThreadLoaded));
parentPort?.on('message', (batch: ThreadBatch) => {
  for (const m of batch)
    chain = chain.then(async () => {
      const reply = await answer(m);
      // The JSON's bytes are moved to the main thread, not copied.
      parentPort?.postMessage(reply, 'json' in reply ? [reply.json.buffer as ArrayBuffer] : []);
    });
});
