import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsIP, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { COUNTRY_CODES, CountryCode } from '../countries';
import { Required } from '../validation';
import { PLACE_ID_PATTERN } from './detail.dto';
import { IsCountryList, IsLatLngText, IsPlaceIdList, IsViaIp, ToList, ToNumber, ToText, Trim } from './search-params';

export const CONTEXT_TYPES = ['strict', 'preference'] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export const DEFAULT_LIMIT = 7;
export const MAX_LIMIT = 20;
export const DEFAULT_DISTINCT_M = 10;
export const MAX_DISTINCT_M = 50000;

/** Parameters every place search shares (spec: "Parameters shared by place searches"). */
export class PlaceSearchBase {
  @ApiPropertyOptional({ type: [String], description: 'place_id values of regions, counties or municipalities; context[0]=..&context[1]=.. or comma-separated' })
  @IsOptional()
  @ToList()
  @IsPlaceIdList(PLACE_ID_PATTERN)
  context?: string[];

  @ApiPropertyOptional({ enum: CONTEXT_TYPES, default: 'strict', description: 'strict filters by context and the refiners, preference boosts them' })
  @IsOptional()
  @Trim()
  @IsIn(CONTEXT_TYPES, { message: 'contextType must be strict or preference' })
  contextType?: ContextType;

  @ApiPropertyOptional({ example: '49.9388,17.9026', description: 'Bias results towards "latitude,longitude"' })
  @IsOptional()
  @IsLatLngText()
  around_latlng?: string;

  @ApiPropertyOptional({ example: 'true', description: 'Bias towards the caller\'s location (true/false or an IP address)' })
  @IsOptional()
  @IsViaIp()
  around_latlng_via_ip?: string | boolean;

  /**
   * Set by the gateway, never taken from the caller (the gateway overwrites it): the caller's
   * address as the gateway trusts it (the socket, or a trusted proxy's header), which places
   * locates for `around_latlng_via_ip=true`.
   */
  @ApiHideProperty()
  @IsOptional()
  @IsIP(undefined, { message: 'caller_ip must be an IP address' })
  caller_ip?: string;

  @ApiPropertyOptional({ example: 'CZ,SK', description: `One or several of ${COUNTRY_CODES.join(', ')} (array or comma-separated)` })
  @IsOptional()
  @ToList(true)
  @IsCountryList()
  country?: CountryCode[];

  @ApiPropertyOptional({ example: '7', default: DEFAULT_LIMIT, description: `1 to ${MAX_LIMIT}` })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  @Max(MAX_LIMIT, { message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  limit?: number;
}

const QUERY_MAX = 200;
const PARTIAL_POSTAL_CODE = /^\s*[\d\s-]{1,8}\s*$/;

// Composed in the order the stacked decorators registered their checks (bottom-up), so the
// first failing check and its message stay the same.
/** A free-text parameter of at most QUERY_MAX characters. */
const Text = (name: string) => applyDecorators(MaxLength(QUERY_MAX), IsString({ message: `${name} must be text` }), ToText());
/** A whole or partial postal code: digits, spaces, dashes. */
const PartialPostalCode = () =>
  applyDecorators(
    Matches(PARTIAL_POSTAL_CODE, { message: 'postal_code must be digits (a whole or partial postal code)' }),
    IsString({ message: 'postal_code must be text' }),
    ToText(),
  );

/** `POST /v1/places/query`: addresses by any part of them. */
export class PlaceQueryRequest extends PlaceSearchBase {
  @ApiProperty({ example: 'Lihovarská 79/22a Opava' })
  @Required()
  @IsString({ message: 'query must be text' })
  @MaxLength(QUERY_MAX, { message: `query is longer than ${QUERY_MAX} characters` })
  @ToText()
  query!: string;

  @ApiPropertyOptional({ description: 'Refines the street name and number' })
  @IsOptional()
  @Text('street')
  street?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Text('municipality')
  municipality?: string;

  @ApiPropertyOptional({ example: '746 01' })
  @IsOptional()
  @PartialPostalCode()
  postal_code?: string;
}

/** `POST /v1/places/street`. */
export class StreetQueryRequest extends PlaceSearchBase {
  @ApiProperty({ example: 'Lihovarská' })
  @Required()
  @Text('query')
  query!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Text('municipality')
  municipality?: string;
}

/** `POST /v1/places/municipality`. */
export class MunicipalityQueryRequest extends PlaceSearchBase {
  @ApiProperty({ example: 'Opava' })
  @Required()
  @Text('query')
  query!: string;

  @ApiPropertyOptional({ example: '746' })
  @IsOptional()
  @PartialPostalCode()
  postal_code?: string;
}

/** `POST /v1/places/postal`: the query is a whole or partial postal code. */
export class PostalQueryRequest extends PlaceSearchBase {
  @ApiProperty({ example: '746 01' })
  @Required()
  @Text('query')
  query!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Text('municipality')
  municipality?: string;
}
