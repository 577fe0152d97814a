import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { Required } from '../validation';
import { ToText } from './search-params';
import { Place } from './place.types';
import { PlaceSearchBase } from './search.dto';

const TEXT_MAX = 200;
const NUMBER_MAX = 20;

/** An empty optional parameter is an absent one (the widget sends every input, empty ones as ""). */
const EmptyIsAbsent = () => Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));

// Stacked bottom-up: the type check runs first, so an object says "must be text", not "too long".
const Text = (name: string, max = TEXT_MAX) =>
  applyDecorators(EmptyIsAbsent(), IsOptional(), MaxLength(max, { message: `${name} is longer than ${max} characters` }), IsString({ message: `${name} must be text` }), ToText());

/**
 * `POST /v1/places/validate` (the official clients' `places.validate`): the address a user
 * finally typed, whole in `query` and/or in parts. At least one of query, street, municipality
 * or postal_code; the parts win over what `query` says about the same field.
 */
export class PlaceValidateRequest extends PlaceSearchBase {
  @ApiPropertyOptional({ example: 'Lihovarská 79/22a, 746 01 Opava', description: 'The whole address as typed (required unless street, municipality or postal_code is given)' })
  @EmptyIsAbsent()
  @ValidateIf((o: PlaceValidateRequest) => o.query !== undefined || (!o.street && !o.municipality && !o.postal_code))
  @Required({ message: 'query is required unless street, municipality or postal_code is given' })
  @MaxLength(TEXT_MAX, { message: `query is longer than ${TEXT_MAX} characters` })
  @IsString({ message: 'query must be text' })
  @ToText()
  query?: string;

  @ApiPropertyOptional({ example: 'Lihovarská', description: 'Street name (a house number written in it is read too); a village without streets: its name' })
  @Text('street')
  street?: string;

  @ApiPropertyOptional({ example: '79', description: 'Conscription number (číslo popisné / evidenční), or `79/22a`' })
  @Text('street_number', NUMBER_MAX)
  street_number?: string;

  @ApiPropertyOptional({ example: '22a', description: 'Orientation number (číslo orientační)' })
  @Text('building_number', NUMBER_MAX)
  building_number?: string;

  @ApiPropertyOptional({ example: 'Opava' })
  @Text('municipality')
  municipality?: string;

  @ApiPropertyOptional({ example: '746 01' })
  @ToText()
  @EmptyIsAbsent()
  @IsOptional()
  @Matches(/^\s*[\d\s-]{1,10}\s*$/, { message: 'postal_code must be digits (spaces and dashes allowed)' })
  @IsString({ message: 'postal_code must be text' })
  postal_code?: string;
}

/** What the register says about the typed address. */
export const VALIDATION_VERDICTS = ['exact', 'corrected', 'ambiguous', 'not_found'] as const;
export type ValidationVerdict = (typeof VALIDATION_VERDICTS)[number];

/**
 * The PHP SDK's `Swiftyper\Validation` constants, so its `isValid()` & co. mean something:
 * exact = valid, corrected = unsure (found, but some parts had to change), ambiguous = many (or
 * insufficient when no house number was given), not_found = invalid.
 */
export const VALIDATION_STATUSES = ['valid', 'unsure', 'many', 'insufficient', 'invalid'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

export const CORRECTED_FIELDS = ['street', 'street_number', 'building_number', 'municipality', 'postal_code'] as const;
export type CorrectedField = (typeof CORRECTED_FIELDS)[number];

/** One part of the typed address that the register writes differently (or that was missing). */
export class AddressCorrection {
  @ApiProperty({ enum: CORRECTED_FIELDS }) field!: CorrectedField;
  @ApiProperty({ nullable: true, type: String, description: 'As typed; null when it was missing' }) given!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The register's value, as in the matched Place" }) value!: string | null;
}

/** The answer of `places.validate`: one object (`object: "validation"`), never a list. */
export class PlaceValidation {
  @ApiProperty({ enum: ['validation'] }) object!: 'validation';
  @ApiProperty({ enum: VALIDATION_VERDICTS }) verdict!: ValidationVerdict;
  @ApiProperty({ enum: VALIDATION_STATUSES, description: 'The verdict in the PHP SDK\'s Validation vocabulary' }) status!: ValidationStatus;
  @ApiProperty({ type: Place, nullable: true, description: 'The matched address (exact or corrected), as the search returns it' }) place!: Place | null;
  @ApiProperty({ type: [AddressCorrection], description: 'Parts that differ from the register (corrected only)' }) corrections!: AddressCorrection[];
  @ApiProperty({ type: [Place], description: 'Up to `limit` equally good addresses (ambiguous only)' }) candidates!: Place[];
}
