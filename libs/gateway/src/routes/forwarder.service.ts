import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@lookup/contracts';
import { TRANSPORT_CLIENT, TransportClient } from '@lookup/shared/transport';
import { AuthenticatedKey } from '../keys/api-key.service';
import { QuotaKind } from '../keys/usage.entity';
import { QuotaService, QuotaTicket } from '../quota/quota.service';

/**
 * The tail of every API route: meter the quota (only once the parameters are valid), send the
 * request to its service, and give the use back when the failure is ours.
 */
@Injectable()
export class Forwarder {
  constructor(
    @Inject(TRANSPORT_CLIENT) private readonly transport: TransportClient,
    private readonly quota: QuotaService,
  ) {}

  async forward<T>(subject: string, payload: unknown, key: AuthenticatedKey | undefined, quota: QuotaKind | null): Promise<T> {
    let ticket: QuotaTicket | null = null;
    if (quota) {
      if (!key) throw DomainError.internal('Metered route without a key.');
      ticket = await this.quota.consume(key, quota);
    }
    try {
      return await this.transport.request<T>(subject, payload);
    } catch (err) {
      if (ticket && (!(err instanceof DomainError) || err.status >= 500)) await this.quota.refund(ticket).catch(() => undefined);
      throw err;
    }
  }
}
