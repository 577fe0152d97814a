import { BeforeApplicationShutdown, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DomainError, ErrorTypes } from '@lookup/contracts';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { ApiKeyRepository, QuotaLease } from '../keys/api-key.repository';
import { AuthenticatedKey } from '../keys/api-key.service';
import { QuotaKind } from '../keys/usage.entity';

let monthFrom = 0;
let monthUntil = 0;
let monthText = '';

/** `YYYY-MM` (UTC). Called on every metered request: the month is kept until it ends. */
export function monthOf(now: Date): string {
  const t = now.getTime();
  if (t >= monthFrom && t < monthUntil) return monthText;
  const text = now.toISOString().slice(0, 7);
  monthFrom = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  monthUntil = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  monthText = text;
  return text;
}

/** Seconds until the next calendar month (UTC) starts: when a spent quota is back. */
export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** A granted use, which can be given back if the request then fails on our side. */
export interface QuotaTicket {
  keyId: number;
  month: string;
  kind: QuotaKind;
  /** The replica's lease it came from, or its outage journal (see QuotaService). */
  readonly source: 'lease' | 'journal';
}

/** Retry-After (s) when the limit is reached only by uses still in progress: they may be given back. */
export const IN_FLIGHT_RETRY_AFTER_S = 1;

/** How long a key seen over its limit is metered before its request is sent (see `likelySpent`). */
export const SPENT_MEMORY_MS = 10_000;

/** A refusal as spent (nothing in progress anywhere) is repeated without asking the database for this long. */
const SPENT_LOCAL_MS = 1000;
/** After a database error, leases are not asked for (the journal serves) for this long; the flush keeps trying. */
const DB_DOWN_MS = 1000;
/** Every lease or report waits at most this long for the database. */
export const QUOTA_DB_TIMEOUT_MS = 2000;
/** Uses out on lease on a row nobody leased from or reported to for this long were left by a replica that stopped without settling. */
const STALE_LEASE_MS = 15_000;
/** Retry-After (s) when this replica cannot tell whether a use is left (database away, quota never seen). */
const UNKNOWN_RETRY_AFTER_S = 2;

/** One key, kind and month as this replica holds it. */
interface Local {
  keyId: number;
  month: string;
  kind: QuotaKind;
  limit: number;
  /** Leased uses at hand. */
  avail: number;
  /** Uses taken (from the lease or the journal) whose requests have not finished. */
  inFlight: number;
  /** Leased uses answered, not yet reported (the database still counts them as out on lease). */
  answered: number;
  /** Uses answered without a lease while the database was away, not yet written (count += journal). */
  journal: number;
  /** Leased uses in a report statement under way (still out on lease for the database). */
  sending: number;
  /** Journal uses in a report statement under way (not yet in `knownCount`). */
  journalSending: number;
  /** `count` as the database last reported it (all replicas), null before the first lease. */
  knownCount: number | null;
  lastUse: number;
  leasing?: Promise<QuotaLease | null>;
  waiters: number;
  /** Demand: uses in the current second and the previous one. */
  winStart: number;
  winUses: number;
  lastRate: number;
  /** Refusal as spent, repeated locally until then (for this limit). */
  spentUntil: number;
  spentLimit: number;
}

/** A ticket with what only this service reads kept in private fields: out of logs, JSON and equality checks. */
class InternalTicket implements QuotaTicket {
  readonly #local: Local;
  #refunded = false;

  constructor(
    readonly keyId: number,
    readonly month: string,
    readonly kind: QuotaKind,
    readonly source: 'lease' | 'journal',
    local: Local,
  ) {
    this.#local = local;
  }

  get local(): Local {
    return this.#local;
  }

  get refunded(): boolean {
    return this.#refunded;
  }

  set refunded(value: boolean) {
    this.#refunded = value;
  }
}

/**
 * Monthly quotas, exact across gateway replicas without a database write per request.
 *
 * Each replica leases uses from `api_key_usage` (one atomic statement that never passes the
 * limit; the leased uses are counted at once and marked `leased`) and grants requests from the
 * lease in memory. Every QUOTA_FLUSH_MS it reports what became of them in one statement per key:
 * answered (no longer `leased`) and, when the key was idle for QUOTA_LEASE_IDLE_MS, unused ones
 * given back (`count` and `leased` both lowered). So `count` never passes the limit, and equals
 * the uses answered once the leases are settled (on shutdown, or after idle time). A lease is at
 * most QUOTA_LEASE_MAX, the demand of about a second, and (remaining uses)/(2 x QUOTA_LEASE_REPLICAS),
 * so near the limit a lease is 1 use and a replica never sits on uses another one needs.
 *
 * Database away: uses come from the lease at hand, then from a journal (counted in memory),
 * bounded by what the key had left when last seen (`limit - count`, all replicas); the journal
 * is written when the database answers again. A crash loses no answered use (leased uses are
 * counted up front); its unused leased uses (at most one lease per key and kind) stay counted.
 */
@Injectable()
export class QuotaService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Quota');
  /** `keyId:kind:month` -> until when this replica saw the counter at its limit. */
  private readonly spent = new Map<string, number>();
  private readonly locals = new Map<string, Local>();
  private readonly leaseMax: number;
  private readonly replicas: number;
  private readonly idleMs: number;
  private readonly timer: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private dbDownUntil = 0;
  private closed = false;

  constructor(
    private readonly repo: ApiKeyRepository,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    const c = config ?? new AppConfig();
    this.leaseMax = c.QUOTA_LEASE_MAX;
    this.replicas = c.QUOTA_LEASE_REPLICAS;
    this.idleMs = c.QUOTA_LEASE_IDLE_MS;
    this.timer = setInterval(() => void this.flush(false), c.QUOTA_FLUSH_MS);
    this.timer.unref();
  }

  /**
   * True when this replica recently saw the key's counter full. The forwarder then meters
   * before sending (no engine work for requests that will be refused); otherwise it meters and
   * sends at the same time. Only a hint: the counter decides either way.
   */
  likelySpent(key: AuthenticatedKey, kind: QuotaKind, now = new Date()): boolean {
    const id = `${key.id}:${kind}:${monthOf(now)}`;
    const until = this.spent.get(id);
    if (until === undefined) return false;
    if (until > now.getTime()) return true;
    this.spent.delete(id);
    return false;
  }

  /**
   * Takes one use. A refusal while uses of the key are still in progress (here, or out on lease
   * to another replica) is not "spent" (those may fail and be given back, see the issue-16 case of
   * a provider that is down): it is `rate_limit` with a short Retry-After. Only a limit reached
   * by finished uses is `over_query_limit` until the month ends. Call `settle` when the request
   * has finished. Costs no database round trip while the replica's lease lasts.
   */
  async consume(key: AuthenticatedKey, kind: QuotaKind, now = new Date()): Promise<QuotaTicket> {
    const month = monthOf(now);
    const limit = kind === 'search' ? key.monthlySearchLimit : key.monthlyQueryLimit;
    const l = this.local(key.id, kind, month);
    l.limit = limit;
    for (;;) {
      const t = Date.now();
      if (l.avail > 0) return this.grant(l, 'lease', t);
      if (limit <= 0) throw this.refusal(l, now, false);
      if (l.spentUntil > t && l.spentLimit === limit) throw this.refusal(l, now, false);
      let lease: QuotaLease | null = null;
      if (this.dbDownUntil <= t) {
        l.leasing ??= this.lease(l).finally(() => (l.leasing = undefined));
        l.waiters++;
        try {
          lease = await l.leasing;
        } finally {
          l.waiters--;
        }
        if (l.avail > 0) continue; // this lease, or a use given back meanwhile
        if (lease && lease.granted > 0) continue; // others took it first: lease again
      }
      if (lease === null) return this.fromJournal(l, now);
      // Nothing left: taken by uses in progress (here, or leased to a live replica), or spent.
      const mine = l.avail + l.inFlight + l.answered + l.sending;
      const elsewhere = lease.leased - mine > 0 && lease.ageMs < STALE_LEASE_MS;
      if (!(l.inFlight > 0 || elsewhere)) {
        l.spentUntil = Date.now() + SPENT_LOCAL_MS;
        l.spentLimit = limit;
      }
      throw this.refusal(l, now, l.inFlight > 0 || elsewhere);
    }
  }

  /** Gives back a use that did not get an answer (server fault). Call `settle` after it. */
  async refund(ticket: QuotaTicket): Promise<void> {
    const t = ticket as InternalTicket;
    if (t.refunded || !t.local) return;
    t.refunded = true;
    // Back into the lease (another request may use it, or it is returned) or out of the journal.
    if (t.source === 'lease') t.local.avail++;
    else t.local.journal--;
  }

  /** The request behind `ticket` has finished (answered, or refused and refunded). */
  settle(ticket: QuotaTicket): void {
    const t = ticket as InternalTicket;
    if (!t.local) return;
    const l = t.local;
    l.inFlight = Math.max(0, l.inFlight - 1);
    if (!t.refunded && t.source === 'lease') l.answered++;
  }

  /**
   * Writes everything this replica holds: answered uses reported, the journal written, every
   * unused leased use given back. Afterwards `count` in the database is exact for this replica's
   * part. Shutdown calls it; tests call it before reading counters.
   */
  async settleAll(): Promise<void> {
    await this.flush(true);
  }

  /** Waits (at most 2 s) for requests in progress, then settles. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    const until = Date.now() + 2000;
    while (Date.now() < until && [...this.locals.values()].some((l) => l.inFlight > 0)) await new Promise((r) => setTimeout(r, 20));
    await this.flush(true).catch((err: unknown) => this.logger.warn(`Quota leases not settled at shutdown: ${String(err)}`));
    this.closed = true;
  }

  /** Leased uses at hand, answered uses not reported, and the journal (tests, metrics). */
  held(): { avail: number; answered: number; journal: number } {
    let avail = 0;
    let answered = 0;
    let journal = 0;
    for (const l of this.locals.values()) {
      avail += l.avail;
      answered += l.answered;
      journal += l.journal;
    }
    return { avail, answered, journal };
  }

  private local(keyId: number, kind: QuotaKind, month: string): Local {
    const id = `${keyId}:${kind}:${month}`;
    let l = this.locals.get(id);
    if (!l) {
      l = {
        keyId,
        month,
        kind,
        limit: 0,
        avail: 0,
        inFlight: 0,
        answered: 0,
        journal: 0,
        sending: 0,
        journalSending: 0,
        knownCount: null,
        lastUse: Date.now(),
        waiters: 0,
        winStart: Date.now(),
        winUses: 0,
        lastRate: 0,
        spentUntil: 0,
        spentLimit: 0,
      };
      this.locals.set(id, l);
    }
    return l;
  }

  private grant(l: Local, source: 'lease' | 'journal', t: number): QuotaTicket {
    if (source === 'lease') l.avail--;
    else l.journal++;
    l.inFlight++;
    l.lastUse = t;
    if (t - l.winStart >= 1000) {
      l.lastRate = t - l.winStart >= 2000 ? 0 : l.winUses;
      l.winStart = t;
      l.winUses = 0;
    }
    l.winUses++;
    // A class instance, not a literal with two defineProperty calls (which leave a slow dictionary object).
    return new InternalTicket(l.keyId, l.month, l.kind, source, l);
  }

  /** How many uses to ask for: the demand of about a second, never more than a fair share of what is left. */
  private want(l: Local): number {
    const remaining = l.limit - (l.knownCount ?? 0);
    const share = Math.floor(remaining / (2 * this.replicas));
    const demand = Math.max(l.waiters, l.winUses, l.lastRate);
    return Math.max(1, Math.min(this.leaseMax, share, demand));
  }

  /** One lease statement; null when the database did not answer (then the journal serves). */
  private async lease(l: Local): Promise<QuotaLease | null> {
    // Requests that arrived in the same tick are waiting by now: one lease for all of them.
    await Promise.resolve();
    try {
      const lease = await withTimeout(this.repo.leaseQuota(l.keyId, l.month, l.kind, l.limit, this.want(l)), QUOTA_DB_TIMEOUT_MS);
      l.avail += lease.granted;
      l.knownCount = lease.count;
      this.dbDownUntil = 0;
      return lease;
    } catch (err) {
      this.databaseDown(err);
      return null;
    }
  }

  /** Database away: a use from the journal, bounded by what the key had left when last seen. */
  private fromJournal(l: Local, now: Date): QuotaTicket {
    // Never seen (no lease yet this month): at most one lease's worth, so an outage cannot
    // hand out more than a replica could have held anyway.
    const left = l.knownCount === null ? Math.min(l.limit, this.leaseMax) : l.limit - l.knownCount;
    if (l.journal + l.journalSending < left) return this.grant(l, 'journal', Date.now());
    if (l.knownCount === null) {
      throw new DomainError(ErrorTypes.serviceUnavailable, 'The quota store is unreachable; try again shortly.', null, 503, UNKNOWN_RETRY_AFTER_S);
    }
    throw this.refusal(l, now, l.inFlight > 0);
  }

  private refusal(l: Local, now: Date, inProgress: boolean): DomainError {
    const id = `${l.keyId}:${l.kind}:${l.month}`;
    // Either refusal makes later requests meter first (see likelySpent).
    if (this.spent.size > 10_000) this.spent.clear();
    this.spent.set(id, now.getTime() + SPENT_MEMORY_MS);
    if (inProgress) {
      return new DomainError(
        ErrorTypes.rateLimit,
        `The monthly ${l.kind} limit of this API key (${l.limit}) is taken by requests still in progress; try again shortly.`,
        null,
        400,
        IN_FLIGHT_RETRY_AFTER_S,
      );
    }
    return new DomainError(ErrorTypes.overQueryLimit, `The monthly ${l.kind} limit of this API key (${l.limit}) is spent.`, null, 400, secondsToNextMonth(now));
  }

  private databaseDown(err: unknown): void {
    if (this.dbDownUntil === 0) this.logger.warn(`Quota store unreachable, counting uses locally: ${err instanceof Error ? err.message : String(err)}`);
    this.dbDownUntil = Date.now() + DB_DOWN_MS;
  }

  private flush(all: boolean): Promise<void> {
    if (this.closed) return Promise.resolve();
    // One flush at a time; a settle-all after a periodic flush runs once that one is done.
    const run = (this.flushing ?? Promise.resolve()).then(() => this.flushOnce(all));
    const tracked: Promise<void> = run
      .catch(() => undefined)
      .finally(() => {
        if (this.flushing === tracked) this.flushing = undefined;
      });
    this.flushing = tracked;
    return all ? run : tracked;
  }

  private async flushOnce(all: boolean): Promise<void> {
    const t = Date.now();
    const month = monthOf(new Date(t));
    let failed: unknown = null;
    for (const [id, l] of [...this.locals]) {
      const idle = t - l.lastUse >= this.idleMs || l.month !== month;
      const returned = all || idle ? l.avail : 0;
      const answered = l.answered;
      const journal = l.journal;
      if (returned === 0 && answered === 0 && journal === 0) {
        if (idle && l.inFlight === 0 && l.sending === 0 && l.journalSending === 0 && !l.leasing && t - l.lastUse > 60_000) this.locals.delete(id);
        continue;
      }
      if (failed !== null && !all) continue;
      l.avail -= returned;
      l.answered -= answered;
      l.journal -= journal;
      l.sending += returned + answered;
      l.journalSending += journal;
      try {
        l.knownCount = await withTimeout(this.repo.reportQuota(l.keyId, l.month, l.kind, answered, returned, journal), QUOTA_DB_TIMEOUT_MS);
        this.dbDownUntil = 0;
      } catch (err) {
        // Kept for the next flush; a report that timed out but was written would count twice,
        // which the timeout (far above a statement's time) makes unlikely.
        l.avail += returned;
        l.answered += answered;
        l.journal += journal;
        failed = err;
        this.databaseDown(err);
      } finally {
        l.sending -= returned + answered;
        l.journalSending -= journal;
      }
    }
    if (failed !== null && all) throw failed;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
