import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { CountryCode, COUNTRY_CODES } from '../countries';
import { IsCountry, Required } from '../validation';

/**
 * A list of one country (`country[0]=CZ`, `["CZ"]`, as the searches take it) is that country; a
 * longer list stays a list, refused as not one country. Then upper-cased and trimmed.
 */
const OneCountry = () =>
  Transform(({ value }) => {
    // `CZ,SK` is a list too (as the searches write one).
    const list: unknown = typeof value === 'string' && value.includes(',') ? value.split(',') : value;
    const one: unknown = Array.isArray(list) && list.length === 1 ? list[0] : list;
    return typeof one === 'string' ? one.trim().toUpperCase() : one;
  });

export class CatalogueRequest {
  @ApiProperty({ enum: COUNTRY_CODES, description: 'Country whose whole catalogue is returned' })
  @OneCountry()
  @Required()
  @IsCountry()
  country!: CountryCode;
}

/** Optional country, as on the health ping. */
export class PingRequest {
  @IsOptional()
  note?: string;
}
