import { Injectable } from '@nestjs/common';
import { DomainError, ErrorTypes } from '@lookup/contracts';
import { ApiKeyRepository } from '../keys/api-key.repository';
import { AuthenticatedKey } from '../keys/api-key.service';
import { QuotaKind } from '../keys/usage.entity';

export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
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
}

/** Retry-After (s) when the limit is reached only by uses still in progress: they may be given back. */
export const IN_FLIGHT_RETRY_AFTER_S = 1;

/** How long a key seen over its limit is metered before its request is sent (see `likelySpent`). */
export const SPENT_MEMORY_MS = 10_000;

@Injectable()
export class QuotaService {
  /** `keyId:kind:month` -> until when this replica saw the counter at its limit. */
  private readonly spent = new Map<string, number>();
  /** `keyId:kind:month` -> uses this replica granted whose requests have not finished. */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly repo: ApiKeyRepository) {}

  /**
   * True when this replica recently saw the key's counter full. The forwarder then meters
   * before sending (no engine work for requests that will be refused); otherwise it meters and
   * sends at the same time. Only a hint: the counter in the database decides either way.
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
   * Takes one use. A refusal while this replica still has uses of the key in progress is not
   * "spent" (those may fail and be given back, see the issue-16 case of a provider that is down):
   * it is `rate_limit` with a short Retry-After. Only a limit reached by finished uses is
   * `over_query_limit` until the month ends. Call `settle` when the request has finished.
   */
  async consume(key: AuthenticatedKey, kind: QuotaKind, now = new Date()): Promise<QuotaTicket> {
    const month = monthOf(now);
    const limit = kind === 'search' ? key.monthlySearchLimit : key.monthlyQueryLimit;
    const id = `${key.id}:${kind}:${month}`;
    if (await this.repo.consume(key.id, month, kind, limit)) {
      this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
      return { keyId: key.id, month, kind };
    }
    // Either refusal makes later requests meter first (see likelySpent).
    if (this.spent.size > 10_000) this.spent.clear();
    this.spent.set(id, now.getTime() + SPENT_MEMORY_MS);
    if ((this.inFlight.get(id) ?? 0) > 0) {
      throw new DomainError(
        ErrorTypes.rateLimit,
        `The monthly ${kind} limit of this API key (${limit}) is taken by requests still in progress; try again shortly.`,
        null,
        400,
        IN_FLIGHT_RETRY_AFTER_S,
      );
    }
    throw new DomainError(ErrorTypes.overQueryLimit, `The monthly ${kind} limit of this API key (${limit}) is spent.`, null, 400, secondsToNextMonth(now));
  }

  /** Gives back a use that did not get an answer (server fault). Call `settle` after it. */
  refund(ticket: QuotaTicket): Promise<void> {
    return this.repo.refund(ticket.keyId, ticket.month, ticket.kind);
  }

  /** The request behind `ticket` has finished (answered, or refused and refunded). */
  settle(ticket: QuotaTicket): void {
    const id = `${ticket.keyId}:${ticket.kind}:${ticket.month}`;
    const n = (this.inFlight.get(id) ?? 1) - 1;
    if (n > 0) this.inFlight.set(id, n);
    else this.inFlight.delete(id);
  }
}
