import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, ValidateIf, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { COUNTRY_CODES, CountryCode } from '../countries';
import { Required } from '../validation';
import { IsCountryList, IsLatLngText, IsViaIp, ToList, ToNumber, ToText, Trim } from '../places/search-params';

export const BUSINESS_DEFAULT_LIMIT = 7;
export const BUSINESS_MAX_LIMIT = 20;
/** Lowercase country prefix + opaque token (the register's own number, see the importers). */
/** A country prefix, then a token, ours lowercase or the hosted service's mixed-case (see PLACE_ID_PATTERN). */
export const BUSINESS_ID_PATTERN = /^(sk|cz)_[0-9A-Za-z][0-9A-Za-z_-]{0,40}$/;
const QUERY_MAX = 200;

/**
 * The widget sends `active=true` (or `1`); `false`/`0` and omission mean "all" (the spec only
 * names the filter for existing entities). Idempotent: the handler re-validates a boolean.
 */
export const ToActive = () =>
  Transform(({ value }) => {
    if (typeof value === 'boolean' || value === undefined || value === null || value === '') return value === '' ? undefined : value;
    const v = String(value).trim().toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return value;
  });

/** Parameters both business searches share. */
export class BusinessSearchBase {
  @ApiPropertyOptional({ example: 'true', description: 'true or 1: only existing (non-terminated) entities; omitted, false or 0: all' })
  @IsOptional()
  @ToActive()
  @IsBoolean({ message: 'active must be true, false, 1 or 0' })
  active?: boolean;

  @ApiPropertyOptional({ example: 'CZ,SK', description: `One or several of ${COUNTRY_CODES.join(', ')} (business data: CZ, SK)` })
  @IsOptional()
  @ToList(true)
  @IsCountryList()
  country?: CountryCode[];

  @ApiPropertyOptional({ example: '7', default: BUSINESS_DEFAULT_LIMIT, description: `1 to ${BUSINESS_MAX_LIMIT}` })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  @Max(BUSINESS_MAX_LIMIT, { message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  limit?: number;
}

/** `POST /v1/business/query`: entities by name. */
export class BusinessQueryRequest extends BusinessSearchBase {
  @ApiProperty({ example: 'skoda auto' })
  @Required()
  @IsString({ message: 'query must be text' })
  @MaxLength(QUERY_MAX, { message: `query is longer than ${QUERY_MAX} characters` })
  query!: string;
}

/**
 * `POST /v1/business/identifier`: entities by organisation id number (IČO), whole or typed so
 * far; or, as the PHP SDK's `Business::detail($id)` calls it, one entity by `business_id`
 * (then `query` is optional and the answer is the detail's array of one).
 */
export class BusinessIdentifierRequest extends BusinessSearchBase {
  @ApiPropertyOptional({ example: 'cz_00177041', description: 'One entity by its identifier (what the PHP SDK sends for Business::detail)' })
  @IsOptional()
  @MaxLength(44, { message: 'business_id is too long' })
  @Matches(BUSINESS_ID_PATTERN, { message: 'business_id must be a country prefix (cz_, sk_) followed by an entity token' })
  @IsString({ message: 'business_id must be text' })
  business_id?: string;

  @ApiProperty({ example: '001 77 041' })
  @ValidateIf((o: BusinessIdentifierRequest) => o.business_id === undefined || o.query !== undefined)
  @Required()
  @ToText()
  @IsString({ message: 'query must be text' })
  @Matches(/^[\d\s]{1,20}$/, { message: 'query must be an organisation identification number: digits, spaces allowed' })
  @Matches(/^\s*(\d\s*){1,10}$/, { message: 'query has too many digits for an organisation identification number' })
  query!: string;
}

/**
 * `POST /v1/business/{business_id}`: an array of one. The spec lists `query` as required and the
 * place-search refiners as optional; real clients send only the id, so all of those are
 * accepted and ignored.
 */
export class BusinessDetailRequest {
  @ApiProperty({ example: 'cz_00177041' })
  @Required()
  @MaxLength(44, { message: 'business_id is too long' })
  @Matches(BUSINESS_ID_PATTERN, { message: 'business_id must be a country prefix (cz_, sk_) followed by an entity token' })
  business_id!: string;

  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'query must be text' }) @MaxLength(QUERY_MAX) query?: string;
  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'postal_code must be text' }) @MaxLength(16) postal_code?: string;
  @ApiPropertyOptional() @IsOptional() @ToList() context?: string[];
  @ApiPropertyOptional() @IsOptional() @Trim() @IsIn(['strict', 'preference'], { message: 'contextType must be strict or preference' }) contextType?: string;
  @ApiPropertyOptional() @IsOptional() @IsLatLngText() around_latlng?: string;
  @ApiPropertyOptional() @IsOptional() @IsViaIp() around_latlng_via_ip?: string | boolean;
  @ApiPropertyOptional() @IsOptional() @ToList(true) @IsCountryList() country?: CountryCode[];
  @ApiPropertyOptional()
  @IsOptional()
  @ToNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  @Max(BUSINESS_MAX_LIMIT, { message: `limit must be a whole number from 1 to ${BUSINESS_MAX_LIMIT}` })
  limit?: number;
}
