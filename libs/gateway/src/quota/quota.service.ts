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

/** How long a key seen over its limit is metered before its request is sent (see `likelySpent`). */
export const SPENT_MEMORY_MS = 10_000;

@Injectable()
export class QuotaService {
  /** `keyId:kind:month` -> until when this replica saw the counter at its limit. */
  private readonly spent = new Map<string, number>();

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

  async consume(key: AuthenticatedKey, kind: QuotaKind, now = new Date()): Promise<QuotaTicket> {
    const month = monthOf(now);
    const limit = kind === 'search' ? key.monthlySearchLimit : key.monthlyQueryLimit;
    if (!(await this.repo.consume(key.id, month, kind, limit))) {
      if (this.spent.size > 10_000) this.spent.clear();
      this.spent.set(`${key.id}:${kind}:${month}`, now.getTime() + SPENT_MEMORY_MS);
      const what = kind === 'search' ? 'search' : 'query';
      throw new DomainError(
        ErrorTypes.overQueryLimit,
        `The monthly ${what} limit of this API key (${limit}) is spent.`,
        null,
        400,
        secondsToNextMonth(now),
      );
    }
    return { keyId: key.id, month, kind };
  }

  refund(ticket: QuotaTicket): Promise<void> {
    return this.repo.refund(ticket.keyId, ticket.month, ticket.kind);
  }
}
