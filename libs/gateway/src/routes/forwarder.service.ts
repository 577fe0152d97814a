import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorTypes } from '@lookup/contracts';
import { TRANSPORT_CLIENT, TransportClient } from '@lookup/shared/transport';
import { AuthenticatedKey } from '../keys/api-key.service';
import { QuotaKind } from '../keys/usage.entity';
import { QuotaService, QuotaTicket } from '../quota/quota.service';

/**
 * The tail of every API route: meter the quota (only once the parameters are valid), send the
 * request to its service, and give the use back when the failure is ours.
 *
 * Searches (the search quota: read-only engine lookups) meter and send side by side, so the
 * counter's round trip (one atomic upsert in PostgreSQL/SQLite, a commit each) is hidden behind
 * the search instead of added to it. Counting stays exact: every answer still waits for its own
 * granted use, a refused use means the answer is dropped (400 over_query_limit, never sent), and
 * a use whose request then fails on our side is given back. Keys recently seen over their limit,
 * and utility calls, are metered first, so a refused request costs no work.
 */
/**
 * A service's refusal of the request's parameters (a VAT number that is not of its country's
 * format): the gateway's own DTO check refuses most before any use is metered, and these cost no
 * use either. An unknown id (404) is an answer, and counted.
 */
const REFUSED_PARAMETERS: ReadonlySet<string> = new Set([ErrorTypes.invalidParameter, ErrorTypes.missingParameter, ErrorTypes.unexpectedParameter]);

/** Every route returns the service's answer as it is: it may stay JSON text (RawJson) up to the HTTP body. */
const PASS_THROUGH = { passThrough: true } as const;

@Injectable()
export class Forwarder {
  constructor(
    @Inject(TRANSPORT_CLIENT) private readonly transport: TransportClient,
    private readonly quota: QuotaService,
  ) {}

  async forward<T>(subject: string, payload: unknown, key: AuthenticatedKey | undefined, quota: QuotaKind | null): Promise<T> {
    if (!quota) return this.transport.request<T>(subject, payload, PASS_THROUGH);
    if (!key) throw DomainError.internal('Metered route without a key.');
    // Utility calls (the query quota) reach outside services (translation providers, SMTP,
    // VIES): metered first, so a refused call never costs an outside request.
    if (quota === 'query' || this.quota.likelySpent(key, quota)) {
      const ticket = await this.quota.consume(key, quota);
      return this.answer(ticket, this.transport.request<T>(subject, payload, PASS_THROUGH));
    }
    const metering = this.quota.consume(key, quota);
    const answer = this.transport.request<T>(subject, payload, PASS_THROUGH);
    // Handled in `answer()` (or dropped when refused); attached now so a failure that comes
    // before the counter's reply is not an unhandled rejection, which would end the process.
    answer.catch(() => undefined);
    const ticket = await metering;
    return this.answer(ticket, answer);
  }

  private async answer<T>(ticket: QuotaTicket, answer: Promise<T>): Promise<T> {
    try {
      return await answer;
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500 || REFUSED_PARAMETERS.has(err.type)) await this.quota.refund(ticket).catch(() => undefined);
      throw err;
    } finally {
      // After any refund, so a concurrent refusal never sees the use as both spent and finished.
      this.quota.settle(ticket);
    }
  }
}
