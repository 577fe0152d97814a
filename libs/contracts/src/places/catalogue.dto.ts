import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { CountryCode, COUNTRY_CODES } from '../countries';
import { IsCountry, Required, UpperTrim } from '../validation';

export class CatalogueRequest {
  @ApiProperty({ enum: COUNTRY_CODES, description: 'Country whose whole catalogue is returned' })
  @UpperTrim()
  @Required()
  @IsCountry()
  country!: CountryCode;
}

/** Optional country, as on the health ping. */
export class PingRequest {
  @IsOptional()
  note?: string;
}
