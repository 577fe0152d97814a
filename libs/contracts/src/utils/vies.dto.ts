import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Required } from '../validation';

/** VIES member-state codes: Greece is EL, Northern Ireland XI. */
export const VIES_COUNTRY_CODES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT',
  'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI',
] as const;
export type ViesCountryCode = (typeof VIES_COUNTRY_CODES)[number];

/** Upper-case, trimmed, and the ISO code GR taken as VIES's EL. */
const memberState = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.trim().toUpperCase();
    return v === 'GR' ? 'EL' : v;
  });
const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const NOT_MEMBER = `must be an EU member-state code (${VIES_COUNTRY_CODES.join(', ')})`;
/** Digits and letters, with the separators people type (spaces, dots, dashes). */
const VAT_CHARS = /^[A-Za-z0-9][A-Za-z0-9 .\-/]*$/;

export class VatCheckRequest {
  @ApiProperty({ enum: VIES_COUNTRY_CODES, example: 'CZ', description: 'Member state of the supplier (GR is accepted as EL)' })
  @memberState()
  @Required()
  @IsIn(VIES_COUNTRY_CODES, { message: `countryCode ${NOT_MEMBER}` })
  countryCode!: ViesCountryCode;

  @ApiProperty({ example: '25123891', description: 'VAT number, with or without the country prefix' })
  @trimmed()
  @Required()
  @IsString({ message: 'vatNumber must be a string' })
  @MaxLength(30, { message: 'vatNumber is too long' })
  @Matches(VAT_CHARS, { message: 'vatNumber may hold only letters, digits, spaces, dots and dashes' })
  vatNumber!: string;

  @ApiPropertyOptional({ enum: VIES_COUNTRY_CODES, description: 'Member state of the requester, for a consultation number' })
  @memberState()
  @IsOptional()
  @IsIn(VIES_COUNTRY_CODES, { message: `requesterMemberStateCode ${NOT_MEMBER}` })
  requesterMemberStateCode?: ViesCountryCode;

  @ApiPropertyOptional({ description: "The requester's own VAT number" })
  @trimmed()
  @IsOptional()
  @IsString({ message: 'requesterNumber must be a string' })
  @MaxLength(30, { message: 'requesterNumber is too long' })
  @Matches(VAT_CHARS, { message: 'requesterNumber may hold only letters, digits, spaces, dots and dashes' })
  requesterNumber?: string;

  @ApiPropertyOptional() @trimmed() @IsOptional() @IsString({ message: 'traderName must be a string' }) @MaxLength(200, { message: 'traderName is too long' }) traderName?: string;
  @ApiPropertyOptional() @trimmed() @IsOptional() @IsString({ message: 'traderStreet must be a string' }) @MaxLength(200, { message: 'traderStreet is too long' }) traderStreet?: string;
  @ApiPropertyOptional() @trimmed() @IsOptional() @IsString({ message: 'traderPostalCode must be a string' }) @MaxLength(20, { message: 'traderPostalCode is too long' }) traderPostalCode?: string;
  @ApiPropertyOptional() @trimmed() @IsOptional() @IsString({ message: 'traderCity must be a string' }) @MaxLength(100, { message: 'traderCity is too long' }) traderCity?: string;
  @ApiPropertyOptional() @trimmed() @IsOptional() @IsString({ message: 'traderCompanyType must be a string' }) @MaxLength(50, { message: 'traderCompanyType is too long' }) traderCompanyType?: string;
}

export const VIES_OBJECT = 'vies';

/** The spec's EU VAT check result. Trader fields carry VIES's own placeholders (`---`, NOT_PROCESSED). */
export class VatCheckResult {
  @ApiProperty() countryCode!: string;
  @ApiProperty() vatNumber!: string;
  @ApiProperty({ description: 'ISO 8601 date-time' }) requestDate!: string;
  @ApiProperty() valid!: boolean;
  @ApiProperty({ description: 'Consultation number; empty without a requester' }) requestIdentifier!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Multi-line address' }) address!: string;
  @ApiProperty() traderName!: string;
  @ApiProperty() traderStreet!: string;
  @ApiProperty() traderPostalCode!: string;
  @ApiProperty() traderCity!: string;
  @ApiProperty() traderCompanyType!: string;
  @ApiProperty({ example: 'NOT_PROCESSED' }) traderNameMatch!: string;
  @ApiProperty({ example: 'NOT_PROCESSED' }) traderStreetMatch!: string;
  @ApiProperty({ example: 'NOT_PROCESSED' }) traderPostalCodeMatch!: string;
  @ApiProperty({ example: 'NOT_PROCESSED' }) traderCityMatch!: string;
  @ApiProperty({ example: 'NOT_PROCESSED' }) traderCompanyTypeMatch!: string;
  @ApiProperty({ enum: [VIES_OBJECT] }) object!: typeof VIES_OBJECT;
}
