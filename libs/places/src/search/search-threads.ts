import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { DomainError, ErrorEnvelope, ErrorTypes, Place, PlaceReverseRequest } from '@lookup/contracts';
import { httpOneClient, observeEngine } from '@lookup/shared/metrics';
import { RawJson } from '@lookup/shared/transport';
import type { SqliteSource } from '../store/sqlite-places.store';
import type { LatLng, SearchDto, SearchKind } from './search-plan';

export const PLACES_SEARCH_THREADS = Symbol('PLACES_SEARCH_THREADS');

/** One search a thread runs: the text searches with the caller already located, or a reverse lookup. */
export type SearchRequest = { op: SearchKind; dto: SearchDto; located: LatLng | null } | { op: 'reverse'; dto: PlaceReverseRequest };

export interface EngineTiming {
  engine: string;
  operation: string;
  outcome: 'ok' | 'error';
  seconds: number;
}

/** What the main thread posts: the requests of one turn of its event loop, in order. */
export type ThreadBatch = ThreadMessage[];

export interface ThreadMessage {
  id: number;
  source: SqliteSource;
  request: SearchRequest;
  /** Answer with the places' JSON text (UTF-8), not the objects. */
  json: boolean;
}

/** What a thread is started with: the file to open before it says it is loaded (see ThreadLoaded). */
export interface ThreadStart {
  source: SqliteSource | null;
}

/** A thread's first message: its modules are loaded and its file is open. */
export interface ThreadLoaded {
  loaded: true;
}

/** `ms`: how long the thread took for the whole search, its answer's encoding included. */
export type ThreadReply = { id: number; timings: EngineTiming[]; ms: number } & ({ ok: true; places: Place[] } | { ok: true; json: Uint8Array } | { ok: false; error: ErrorEnvelope });

/**
 * runsHere() needs one client to have had the process to itself this long (see httpOneClient):
 * long enough that under load, where requests come on many connections, it never holds.
 */
const ONE_CLIENT_MS = 20;

/** Whether the process is quiet enough for a search to run on the calling thread (see SearchThreads.runsHere()). */
export type QuietCheck = () => boolean;

/** The app's check: one client has had the HTTP server to itself lately (httpOneClient). */
export function processQuiet(): QuietCheck {
  return () => httpOneClient(ONE_CLIENT_MS);
}

/** How long a search may wait in a working thread's queue rather than wake an idle thread (see SearchThreads.pick()). */
export const QUEUE_BEHIND_MS = 0.5;

/** A search a thread has not answered in this long is answered 504 (the thread goes on). */
export const SEARCH_THREAD_TIMEOUT_MS = 10_000;

/**
 * What a thread may take to load (its modules, from TypeScript in tests, and its file) on top of
 * the search's own timeout, for a search sent before it had loaded; and how long the app's start
 * waits for its threads (see ready()) before it serves anyway.
 */
export const THREAD_LOAD_MS = 30_000;

const WORKER_FILE = join(__dirname, `search-thread.worker${extname(__filename)}`);
/** Started from TypeScript (tests, benches): the thread compiles its modules the way the parent does. */
const TS_REGISTER = join(__dirname, '..', '..', '..', '..', 'tools', 'ts-register.js');

interface Pending {
  resolve: (places: Place[] | RawJson) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  /** Resolves when the thread has loaded its modules and opened its file (ThreadLoaded). */
  loaded: Promise<void>;
  isLoaded: boolean;
  pending: Map<number, Pending>;
  /** Requests posted and not yet answered, timed out ones included: what the thread is really busy with. */
  inFlight: number;
  /** When (performance.now()) the thread last answered, or was given work while it had none. */
  progressAt: number;
  /** Requests of this turn of the event loop not yet posted (see post()). */
  outbox: ThreadMessage[];
}

/**
 * The standalone engine's searches on worker threads. better-sqlite3 is synchronous, so on the
 * main thread every search holds the event loop (HTTP, the gateway, the other searches) for its
 * whole run; here each thread has its own read-only connection to the live file (WAL: readers
 * never wait for the writer) and runs the whole search (plan, candidates, ranking, highlight),
 * so the main thread only parses HTTP and the machine's cores search side by side.
 *
 * Versions: every request carries the store's file and generation; a thread whose connection is
 * older than the generation reopens the file, so once the pipeline's commit has swapped a new
 * version in, no search reads the old one. A request goes to a thread that is already working
 * while its queue is short, else to the one with the fewest unanswered requests (see pick());
 * a thread that dies fails its requests (500) and is replaced.
 */
export class SearchThreads {
  private readonly log = new Logger('SearchThreads');
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private closed = false;
  /** What one search has cost lately (ms, a moving average over about 20), on a thread or here; unknown at first. */
  private costMs = Number.POSITIVE_INFINITY;
  /** A search ran on the calling thread in this turn of its event loop (see runsHere()). */
  private ranHere = false;

  /** The threads start with the first search or with start(), whichever comes first. */
  constructor(
    private readonly source: () => SqliteSource,
    private readonly size: number,
    private readonly timeoutMs = SEARCH_THREAD_TIMEOUT_MS,
    private readonly inlineBelowMs = 0,
    private readonly quiet: QuietCheck = processQuiet(),
    private readonly queueBehindMs = QUEUE_BEHIND_MS,
    private readonly loadMs = THREAD_LOAD_MS,
  ) {
    if (size < 1) throw new Error('SearchThreads needs at least one thread');
  }

  /** Threads running now (0 before the first search). */
  get running(): number {
    return this.threads.length;
  }

  /**
   * Starts the threads and resolves once each has loaded its modules and opened the store's file,
   * or after `withinMs` (then it says so in the log, and answers false): the app waits for this before it serves, so
   * a user's first search does not wait for a thread to load, and under a slow start run past the
   * transport's timeout (a reviewer's test saw that 504 when a busy machine loaded the threads'
   * TypeScript for seconds).
   */
  async ready(withinMs = THREAD_LOAD_MS): Promise<boolean> {
    this.start();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
    const t0 = performance.now();
    const loaded = await Promise.race([Promise.all(this.threads.map((t) => t.loaded)).then(() => true), late]);
    clearTimeout(timer);
    if (!loaded) this.log.warn(`The search threads had not loaded after ${withinMs} ms; serving anyway`);
    else this.log.log(`${this.threads.length} search thread(s) loaded in ${Math.round(performance.now() - t0)} ms`);
    return loaded;
  }

  /**
   * Starts the threads now. An app that serves searches calls it at boot: loading a thread takes
   * seconds on a busy machine, which a user's first search would otherwise wait for (and could
   * run past the transport timeout with).
   */
  start(): void {
    if (this.closed) return;
    while (this.threads.length < this.size) this.threads.push(this.spawn());
  }

  /**
   * Whether the caller should run this search itself instead: only when searches cost less than
   * `inlineBelowMs` lately, every thread is idle, no other search ran here in this turn of the
   * event loop, and the process is quiet (`quiet`: by default one client has had the HTTP server
   * to itself for 20 ms, so nobody waits behind the search). A thread's round trip then costs
   * more than it saves: two wake-ups (a system call each, and on a VM an idle vCPU woken, about
   * 0.1 ms in all here) and a copy each way. Under load the searches go to the threads, and the
   * cores search side by side.
   */
  runsHere(): boolean {
    if (this.ranHere || !(this.costMs < this.inlineBelowMs) || !this.quiet()) return false;
    for (const t of this.threads) if (t.inFlight > 0) return false;
    this.ranHere = true;
    setImmediate(() => (this.ranHere = false));
    return true;
  }

  /** What a search cost (ms): one a thread answered, or one the caller ran itself after runsHere(). */
  noteCost(ms: number): void {
    this.costMs = Number.isFinite(this.costMs) ? this.costMs * 0.95 + ms * 0.05 : ms;
  }

  run(request: SearchRequest): Promise<Place[]> {
    return this.send(request, false) as Promise<Place[]>;
  }

  /**
   * The same search, answered as the places' JSON text: the thread encodes it (off the main
   * thread) and hands over the bytes, which the gateway writes as the HTTP body. The objects
   * would be copied across (structured clone) and then encoded on the main thread.
   */
  runJson(request: SearchRequest): Promise<RawJson> {
    return this.send(request, true) as Promise<RawJson>;
  }

  private send(request: SearchRequest, json: boolean): Promise<Place[] | RawJson> {
    if (this.closed) return Promise.reject(new DomainError(ErrorTypes.serviceUnavailable, 'The places search is shutting down.', null, 503));
    this.start();
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise<Place[] | RawJson>((resolve, reject) => {
      // A thread still loading has that long more: the search's own time starts once it can run.
      const timer = setTimeout(
        () => {
          thread.pending.delete(id);
          reject(new DomainError(ErrorTypes.timeout, `The places search did not answer within ${this.timeoutMs} ms.`, null, 504));
        },
        this.timeoutMs + (thread.isLoaded ? 0 : this.loadMs),
      );
      thread.pending.set(id, { resolve, reject, timer });
      if (thread.inFlight++ === 0) thread.progressAt = performance.now();
      this.post(thread, { id, source: this.source(), request, json });
    });
  }

  /**
   * The thread for the next search: one that is already working, while its queue is short
   * (`QUEUE_BEHIND_MS`: the searches in flight on it, times what a search has cost lately),
   * the first such one; otherwise the one with the fewest searches in flight. A thread that
   * is working takes a message without waking; an idle one sleeps, and waking it costs the
   * main thread a system call and, on a VM, an idle vCPU woken (0.1 ms and more on a busy
   * machine here). Cheap searches (the sample) so run on one thread, which stays awake under
   * load, and the next thread joins when the first falls behind; searches that cost more than
   * the bound (a register) spread over the threads at once, as before. Measured with wrk at 8
   * clients on the sample, five interleaved pairs against the least busy thread alone: searches/s
   * -1 % to +25 % (median +7 %), the main thread's CPU per search 192-232 µs instead of 191-259;
   * whole CZ register at 32 clients, three pairs: +3-7 %.
   */
  private pick(): Thread {
    let least = this.threads[0];
    for (const t of this.threads) {
      // Not behind a thread that has answered nothing for longer than the bound: a dear search
      // (a typo pass reading its vocabulary) holds it, and the cheap ones go elsewhere.
      if (t.inFlight > 0 && t.inFlight * this.costMs < this.queueBehindMs && performance.now() - t.progressAt < this.queueBehindMs) return t;
      if (t.inFlight < least.inFlight) least = t;
    }
    return least;
  }

  /**
   * Posts at the end of this turn of the event loop, all of the turn's requests for a thread in
   * one message: each postMessage wakes the thread (a system call that, on a VM, also wakes an
   * idle vCPU) and was the main thread's largest single cost under load (8 % of its time at 8
   * clients on the sample). Measured (bench/search-latency.ts sample, three interleaved pairs):
   * main-thread CPU per search 0.40-0.42 ms instead of 0.43-0.46, 3-9 % more searches per second
   * at 8 clients, concurrency 1 unchanged.
   */
  private post(thread: Thread, message: ThreadMessage): void {
    thread.outbox.push(message);
    if (thread.outbox.length > 1) return;
    setImmediate(() => {
      const batch = thread.outbox;
      thread.outbox = [];
      thread.worker.postMessage(batch);
    });
  }

  private spawn(): Thread {
    const fromSource = extname(__filename) === '.ts';
    const workerData: ThreadStart = { source: this.currentSource() };
    const worker = new Worker(WORKER_FILE, fromSource ? { workerData, execArgv: [...process.execArgv, '-r', TS_REGISTER] } : { workerData });
    let loaded!: () => void;
    const thread: Thread = { worker, loaded: new Promise((resolve) => (loaded = resolve)), isLoaded: false, pending: new Map(), inFlight: 0, progressAt: 0, outbox: [] };
    // Idle threads do not keep the process alive; a request in flight does (its timer).
    worker.unref();
    worker.on('message', (reply: ThreadReply | ThreadLoaded) => {
      if ('loaded' in reply) {
        thread.isLoaded = true;
        loaded();
        return;
      }
      thread.inFlight = Math.max(0, thread.inFlight - 1);
      thread.progressAt = performance.now();
      this.noteCost(reply.ms);
      for (const t of reply.timings) observeEngine(t.engine, t.operation, t.outcome, t.seconds);
      const p = thread.pending.get(reply.id);
      if (!p) return;
      thread.pending.delete(reply.id);
      clearTimeout(p.timer);
      if (!reply.ok) p.reject(DomainError.fromEnvelope(reply.error));
      else p.resolve('json' in reply ? new RawJson(reply.json) : reply.places);
    });
    worker.on('error', (err) => this.log.error(`Search thread failed: ${err.stack ?? String(err)}`));
    worker.on('exit', (code) => {
      for (const p of thread.pending.values()) {
        clearTimeout(p.timer);
        p.reject(DomainError.internal('The search thread stopped.'));
      }
      thread.pending.clear();
      // Nobody waits for a thread that is gone (its replacement is not waited for).
      loaded();
      if (this.closed) return;
      this.log.error(`Search thread exited with code ${code}; starting another`);
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads[at] = this.spawn();
    });
    return thread;
  }

  /** The store's file now, or null when it cannot be read yet (the thread then opens the one its first search names). */
  private currentSource(): SqliteSource | null {
    try {
      return this.source();
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
