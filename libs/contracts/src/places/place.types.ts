import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CountryCode } from '../countries';

export const PlaceObjects = ['address', 'street', 'municipality', 'postal_code', 'region', 'county'] as const;
export type PlaceObject = (typeof PlaceObjects)[number];

export class LatLng {
  @ApiProperty() lat!: number;
  @ApiProperty() lng!: number;
}

/** A Place as the API returns it; which fields are present depends on `object`. */
export class Place {
  @ApiProperty({ example: 'cz_m500011' }) place_id!: string;
  @ApiProperty({ description: 'Matched parts wrapped in <em>, everything else HTML-escaped' }) highlight!: string;
  @ApiPropertyOptional() formatted_address?: string;
  @ApiPropertyOptional() street?: string;
  @ApiPropertyOptional() formatted_street?: string;
  @ApiPropertyOptional({ nullable: true, type: String }) street_number?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) building_number?: string | null;
  @ApiPropertyOptional() formatted_number?: string;
  @ApiPropertyOptional() postal_code?: string;
  @ApiPropertyOptional() municipality?: string;
  @ApiPropertyOptional() district?: string;
  @ApiPropertyOptional() county?: string;
  @ApiPropertyOptional() region?: string;
  @ApiPropertyOptional({ type: LatLng, nullable: true }) latlng?: LatLng | null;
  @ApiProperty({ enum: PlaceObjects }) object!: PlaceObject;
  @ApiProperty() formatted_country!: string;
  @ApiProperty() country!: CountryCode;
}

/** An entry of the region and county catalogues. */
export class CatalogueEntry {
  @ApiProperty({ example: 'cz_r141' }) place_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['region', 'county'] }) object!: 'region' | 'county';
  @ApiProperty() formatted_country!: string;
  @ApiProperty() country!: CountryCode;
}
