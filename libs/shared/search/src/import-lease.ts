import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import { REPLICAS } from './opensearch.client';

/**
 * One import at a time per scope (a country's places, the business register), across processes
 * and machines: a lease document in `<prefix>-import-locks`, created only if absent
 * (`op_type: create`), renewed while the import runs and deleted when it ends.
 *
 * A build copies what it keeps from the live version and switches to its own at the end, so two
 * builds of one scope must not overlap: the later switch would drop what the earlier brought, and
 * the second build's clean-up of "orphan" indexes would delete the first one's half-built index.
 *
 * A holder that died is taken over: at once when it ran on this host (same hostname and PID
 * namespace) and its process is gone, else once its lease has not been renewed for `leaseMs`.
 * A holder that finds its lease taken (it stalled past the lease) must not switch: `assertHeld`.
 */
export interface ImportLeaseHolder {
  host: string;
  /** The PID namespace (`pid:[4026531836]`): a pid is only comparable inside one. */
  pidNamespace: string;
  pid: number;
  command: string;
  startedAt: string;
  token: string;
}

interface LeaseDoc extends ImportLeaseHolder {
  scope: string;
  expiresAt: number;
}

export interface ImportLease {
  readonly holder: ImportLeaseHolder;
  /** Throws when another process took the lease over (this one stalled past it): the import must not switch. */
  assertHeld(): void;
  release(): Promise<void>;
}

export interface ImportLeaseOptions {
  /** A lease not renewed for this long is free (default 60 s; renewed every third of it). */
  leaseMs?: number;
  /** How often a waiting import looks again (default 2 s). */
  pollMs?: number;
  /** Called when the scope is held by another live import, with that holder (then once a minute while waiting). */
  onWait?: (holder: ImportLeaseHolder) => void;
  /** Stop waiting after this long (default: wait as long as the holder lives). */
  maxWaitMs?: number;
}

export class ImportLeaseTimeoutError extends Error {}

export function importLocksIndex(prefix: string): string {
  return `${prefix}-import-locks`;
}

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return 'unknown';
  }
}

/** Whether a process of this PID namespace lives (EPERM: it does, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a holder is known dead: it ran on this host, in this PID namespace, and its process is gone. */
export function holderDead(h: ImportLeaseHolder, now = Date.now(), expiresAt = Infinity): boolean {
  if (expiresAt < now) return true;
  const ns = pidNamespace();
  return h.host === hostname() && h.pidNamespace === ns && ns !== 'unknown' && h.pid !== process.pid && !processAlive(h.pid);
}

type EsError = { meta?: { statusCode?: number; body?: { error?: { type?: string } } } };
const status = (err: unknown) => (err as EsError).meta?.statusCode;

/** Made with our replica rule (a first write would make it with the cluster's default replica, never assigned on one node). */
async function ensureIndex(client: Client, index: string): Promise<void> {
  await client.indices.create({ index, body: { settings: { index: { number_of_shards: 1, auto_expand_replicas: REPLICAS } } } } as never).catch((err: EsError) => {
    if (err.meta?.body?.error?.type !== 'resource_already_exists_exception') throw err;
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An import holding its scope's lease now (`places:CZ`, `business`): what `import status` shows as running. */
export interface HeldImportLease extends ImportLeaseHolder {
  scope: string;
}

/** The leases held now (not expired, by scope); none when no import ever took one. */
export async function heldImportLeases(client: Client, prefix: string, now = Date.now()): Promise<HeldImportLease[]> {
  const res = await client
    .search({ index: importLocksIndex(prefix), body: { size: 100, query: { match_all: {} } } } as never)
    .catch((err: unknown) => {
      if (status(err) === 404) return null;
      throw err;
    });
  const hits = ((res?.body as { hits?: { hits?: Array<{ _source: LeaseDoc }> } } | undefined)?.hits?.hits ?? []).map((h) => h._source);
  return hits
    .filter((d) => d.expiresAt >= now)
    .sort((a, b) => a.scope.localeCompare(b.scope))
    .map(({ expiresAt: _expires, ...held }) => held);
}

/** Takes the lease of `scope`, waiting while another live import holds it. */
export async function acquireImportLease(client: Client, prefix: string, scope: string, command: string, opts: ImportLeaseOptions = {}): Promise<ImportLease> {
  const leaseMs = opts.leaseMs ?? 60_000;
  const pollMs = opts.pollMs ?? 2000;
  const index = importLocksIndex(prefix);
  await ensureIndex(client, index);
  const holder: ImportLeaseHolder = { host: hostname(), pidNamespace: pidNamespace(), pid: process.pid, command, startedAt: new Date().toISOString(), token: randomUUID() };
  const doc = (): LeaseDoc => ({ ...holder, scope, expiresAt: Date.now() + leaseMs });
  const t0 = Date.now();
  let told = 0;
  let seq: { if_seq_no: number; if_primary_term: number };
  for (;;) {
    try {
      const res = await client.index({ index, id: scope, op_type: 'create', refresh: true, body: doc() } as never);
      const b = res.body as { _seq_no: number; _primary_term: number };
      seq = { if_seq_no: b._seq_no, if_primary_term: b._primary_term };
      break;
    } catch (err) {
      if (status(err) !== 409) throw err;
    }
    const got = await client.get({ index, id: scope } as never).catch((err) => {
      if (status(err) === 404) return null;
      throw err;
    });
    if (!got) continue;
    const cur = got.body as { _source: LeaseDoc; _seq_no: number; _primary_term: number };
    if (holderDead(cur._source, Date.now(), cur._source.expiresAt)) {
      // Taken over only if no one else did in between (the version we read is still the stored one).
      const ok = await client
        .index({ index, id: scope, if_seq_no: cur._seq_no, if_primary_term: cur._primary_term, refresh: true, body: doc() } as never)
        .then((res) => res.body as { _seq_no: number; _primary_term: number })
        .catch((err) => {
          if (status(err) === 409) return null;
          throw err;
        });
      if (ok) {
        seq = { if_seq_no: ok._seq_no, if_primary_term: ok._primary_term };
        break;
      }
      continue;
    }
    if (Date.now() - told >= 60_000) {
      opts.onWait?.(cur._source);
      told = Date.now();
    }
    if (opts.maxWaitMs !== undefined && Date.now() - t0 >= opts.maxWaitMs) {
      throw new ImportLeaseTimeoutError(`${scope}: another import holds it (${describeHolder(cur._source)}); waited ${Math.round((Date.now() - t0) / 1000)} s`);
    }
    await sleep(pollMs);
  }

  let lost: string | null = null;
  let released = false;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    if (released || lost) return;
    try {
      const res = await client.index({ index, id: scope, ...seq, refresh: true, body: doc() } as never);
      const b = res.body as { _seq_no: number; _primary_term: number };
      seq = { if_seq_no: b._seq_no, if_primary_term: b._primary_term };
    } catch (err) {
      // 409/404: someone took it over (this process stalled past the lease). Anything else: try again next time.
      if (status(err) === 409 || status(err) === 404) lost = `the import lease of ${scope} was taken over by another process (this one did not renew it for ${leaseMs / 1000} s)`;
    }
  };
  const timer = setInterval(() => {
    renewing = renewing.then(renew);
  }, Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    holder,
    assertHeld() {
      if (lost) throw new Error(lost);
    },
    async release() {
      if (released) return;
      clearInterval(timer);
      await renewing;
      released = true;
      if (lost) return;
      await client.delete({ index, id: scope, ...seq, refresh: true } as never).catch(() => undefined);
    },
  };
}

export function describeHolder(h: ImportLeaseHolder): string {
  return `${h.command}, pid ${h.pid} on ${h.host}, since ${h.startedAt}`;
}
