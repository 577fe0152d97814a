import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { DownloadError, fetchDataset } from '../download/fetch-dataset';
import { ScheduledSource, sourceKey } from './scheduler-sources';

/** What the scheduler remembers of a source between checks. */
export interface SourceState {
  etag: string | null;
  lastModified: string | null;
  sha256: string | null;
  checkedAt: string;
  publishedAt: string | null;
}

export type SourceOutcome = 'not-modified' | 'unchanged' | 'published' | 'failed';

export interface SchedulerOptions {
  sources: ScheduledSource[];
  stateFile: string;
  downloadDir: string;
  intervalMs: number;
  timeoutMs: number;
  maxBytes?: number;
  /** Publishes one event (the JetStream publisher in the indexer app). */
  publish: (e: DatasetUpdatedEvent) => Promise<{ seq: number; duplicate: boolean }>;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * Checks the official sources on a timer with conditional requests and publishes a
 * `datasets.updated` event only for a file whose content changed. The state (validators and
 * sha256 per source) is saved after the event was accepted by JetStream; a crash in between
 * re-publishes on the next check with the same msg id (checksum + published-at), which the
 * stream's duplicate window drops.
 */
export class DatasetScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;

  constructor(private readonly o: SchedulerOptions) {}

  /** First check at once, then every interval. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.o.log('info', 'dataset scheduler started', { sources: this.o.sources.length, intervalHours: this.o.intervalMs / 3.6e6 });
    this.tick(0);
  }

  /** Stops the timer and waits for a check in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.checkAll()
        // Only the state file can fail a whole pass (each source's failure is caught and logged); the next pass tries again.
        .catch((err: unknown) => this.o.log('error', `dataset scheduler pass failed: ${(err as Error).message}`))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.tick(this.o.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** One pass over every source; a failing source does not stop the others. */
  async checkAll(): Promise<Record<string, SourceOutcome>> {
    const state = await this.loadState();
    const out: Record<string, SourceOutcome> = {};
    for (const s of this.o.sources) {
      const key = sourceKey(s);
      try {
        out[key] = await this.check(s, state);
      } catch (err) {
        out[key] = 'failed';
        const permanent = err instanceof DownloadError && err.permanent;
        this.o.log('error', `dataset source check failed: ${(err as Error).message}`, { source: key, permanent });
      }
    }
    return out;
  }

  private async check(s: ScheduledSource, state: Record<string, SourceState>): Promise<SourceOutcome> {
    const key = sourceKey(s);
    const prev = state[key];
    const now = new Date().toISOString();
    const checksum = s.checksumUrl ? await fetchChecksum(s.checksumUrl, this.o.timeoutMs) : undefined;
    // The publisher's checksum already says whether the file changed: no need to download it again.
    if (checksum && prev?.sha256 === checksum) return this.remember(state, key, { ...prev, checkedAt: now }, 'unchanged');
    const dir = join(this.o.downloadDir, `${s.country}-${s.kind}-${createHash('sha256').update(s.url).digest('hex').slice(0, 8)}`.toLowerCase());
    const r = await fetchDataset(s.url, {
      dir,
      timeoutMs: this.o.timeoutMs,
      maxBytes: this.o.maxBytes,
      checksum,
      etag: prev?.etag,
      lastModified: prev?.lastModified,
    });
    const base: SourceState = { etag: r.etag, lastModified: r.lastModified, sha256: prev?.sha256 ?? null, checkedAt: now, publishedAt: prev?.publishedAt ?? null };
    if (r.notModified) return this.remember(state, key, base, 'not-modified');
    // A server without validators (or one that changed them only) sends the same bytes again.
    if (prev?.sha256 === r.sha256) return this.remember(state, key, base, 'unchanged');
    const location = await keepVersion(dir, r.path!, r.sha256!);
    const publishedAt = r.lastModified && !Number.isNaN(Date.parse(r.lastModified)) ? new Date(r.lastModified).toISOString() : now;
    const event = Object.assign(new DatasetUpdatedEvent(), { country: s.country, kind: s.kind, format: s.format, location, checksum: `sha256:${r.sha256}`, publishedAt });
    const ack = await this.o.publish(event);
    this.o.log('info', 'dataset changed: event published', { source: key, sha256: r.sha256, bytes: r.bytes, seq: ack.seq, duplicate: ack.duplicate });
    return this.remember(state, key, { ...base, sha256: r.sha256, publishedAt }, 'published');
  }

  private async remember(state: Record<string, SourceState>, key: string, s: SourceState, outcome: SourceOutcome): Promise<SourceOutcome> {
    state[key] = s;
    await this.saveState(state);
    return outcome;
  }

  private async loadState(): Promise<Record<string, SourceState>> {
    try {
      return JSON.parse(await readFile(this.o.stateFile, 'utf8')) as Record<string, SourceState>;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`scheduler state ${this.o.stateFile} is unreadable: ${(err as Error).message}`);
    }
  }

  /** Temp file + rename: a crash never leaves half a state file. */
  private async saveState(state: Record<string, SourceState>): Promise<void> {
    await mkdir(dirname(this.o.stateFile), { recursive: true });
    const tmp = `${this.o.stateFile}.tmp-${process.pid}`;
    await writeFile(tmp, JSON.stringify(state, null, 2));
    await rename(tmp, this.o.stateFile);
  }
}

/** Downloaded versions kept per source: the one an event names stays until a newer one has been published too. */
const KEEP_VERSIONS = 2;

/**
 * Renames a download to `<sha256 prefix>-<name>`, so the next download never replaces a file an
 * event still points at (the indexer checks its checksum), and removes the oldest versions.
 */
async function keepVersion(dir: string, path: string, sha256: string): Promise<string> {
  const named = join(dir, `${sha256.slice(0, 12)}-${basename(path)}`);
  await rename(path, named);
  const versions = await Promise.all(
    (await readdir(dir)).filter((f) => /^[0-9a-f]{12}-/.test(f)).map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })),
  );
  versions.sort((a, b) => b.t - a.t);
  for (const old of versions.slice(KEEP_VERSIONS)) await unlink(join(dir, old.f)).catch(() => undefined);
  return named;
}

/** The first sha256 in a publisher's checksum file (`<hex>  <name>` or just the hex). */
export async function fetchChecksum(url: string, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new DownloadError(`${url}: ${(err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms (timeout)` : (err as Error).message}`, false);
  }
  if (!res.ok) throw new DownloadError(`${url}: HTTP ${res.status}`, res.status >= 400 && res.status < 500, res.status);
  const hex = /\b[0-9a-fA-F]{64}\b/.exec(await res.text())?.[0];
  if (!hex) throw new DownloadError(`${url}: no sha256 in the checksum file`, true);
  return hex.toLowerCase();
}
