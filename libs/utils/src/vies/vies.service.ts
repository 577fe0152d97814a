import { Inject, Injectable } from '@nestjs/common';
import { DomainError, VatCheckRequest, VatCheckResult } from '@lookup/contracts';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { ViesClient, ViesRequestBody } from './vies.client';
import { checkVatFormat, compactVatNumber } from './vat-format';
import { toVatCheckResult } from './vies.mapper';
import { TtlCache } from './ttl-cache';

export const VIES_CLIENT = Symbol('VIES_CLIENT');

const TRADER_FIELDS = ['traderName', 'traderStreet', 'traderPostalCode', 'traderCity', 'traderCompanyType'] as const;

/**
 * Format and check digits first (a number that cannot exist never costs a VIES call), then
 * VIES. Only valid answers are cached: a repeat within the TTL gets the same answer, with the
 * original requestDate and requestIdentifier.
 */
@Injectable()
export class ViesService {
  private readonly cache: TtlCache<VatCheckResult>;

  constructor(
    @Inject(VIES_CLIENT) private readonly client: ViesClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new TtlCache(config.VIES_CACHE_TTL_SECONDS * 1000);
  }

  async check(dto: VatCheckRequest): Promise<VatCheckResult> {
    const body = this.requestBody(dto);
    const key = JSON.stringify(body);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const result = toVatCheckResult(await this.client.check(body), body);
    if (result.valid) this.cache.set(key, result);
    return result;
  }

  private requestBody(dto: VatCheckRequest): ViesRequestBody {
    const verdict = checkVatFormat(dto.countryCode, dto.vatNumber);
    if (!verdict.ok) {
      const why = verdict.reason === 'format' ? 'does not have the format of' : 'fails the check digit of';
      throw DomainError.invalidParameter('vatNumber', `${JSON.stringify(dto.vatNumber)} ${why} a ${dto.countryCode} VAT number.`);
    }
    const body: ViesRequestBody = { countryCode: dto.countryCode, vatNumber: verdict.number };
    if (dto.requesterNumber) {
      if (!dto.requesterMemberStateCode) throw DomainError.missingParameter('requesterMemberStateCode');
      const requester = checkVatFormat(dto.requesterMemberStateCode, dto.requesterNumber);
      if (!requester.ok) throw DomainError.invalidParameter('requesterNumber', `is not a valid ${dto.requesterMemberStateCode} VAT number.`);
      body.requesterMemberStateCode = dto.requesterMemberStateCode;
      body.requesterNumber = compactVatNumber(dto.requesterMemberStateCode, dto.requesterNumber);
    } else if (dto.requesterMemberStateCode) {
      throw DomainError.missingParameter('requesterNumber');
    }
    for (const f of TRADER_FIELDS) if (dto[f]) body[f] = dto[f];
    return body;
  }
}
