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

@Injectable()
export class QuotaService {
  constructor(private readonly repo: ApiKeyRepository) {}

  async consume(key: AuthenticatedKey, kind: QuotaKind, now = new Date()): Promise<QuotaTicket> {
    const month = monthOf(now);
    const limit = kind === 'search' ? key.monthlySearchLimit : key.monthlyQueryLimit;
    if (!(await this.repo.consume(key.id, month, kind, limit))) {
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
