import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Required } from '../validation';
import { ProjectField } from './intl-scope';

/** The largest translation id: the tables' `integer` (PostgreSQL's is 32 bits). */
export const MAX_TRANSLATION_ID = 2_147_483_647;
import { FBT_NUMBER_MASK, FBT_VARIATION_TYPES, FBT_VARIATION_VALUES, LOCALE_PATTERN } from './intl.types';

/** Form bodies carry `variations[0]=4` as the string '4'; JSON may send numbers. */
const IntArray = () =>
  Transform(({ value }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : v)) : value));

const Locale = () => Matches(LOCALE_PATTERN, { message: 'locale must look like xx_XX (e.g. cs_CZ)' });
const Contributor = () => IsEmail({}, { message: 'contributor must be the e-mail address of a project member' });

export class TranslationSubmitRequest {
  @ApiProperty() @Required() @IsString() @MaxLength(10000) translation!: string;
  @ApiProperty({ description: 'Hash of the phrase being translated' }) @Required() @IsString() @MaxLength(100) hash!: string;
  @ApiPropertyOptional({ description: 'Sent by the official clients, equal to hash' }) @IsOptional() @IsString() @MaxLength(100) phash?: string;
  @ApiProperty({ example: 'cs_CZ' }) @Required() @IsString() @Locale() locale!: string;
  @ApiProperty() @Required() @IsString() @MaxLength(254) @Contributor() contributor!: string;

  @ApiPropertyOptional({ type: [String], description: 'Names of the tokens this translation varies by' })
  @IsOptional() @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) @MaxLength(100, { each: true })
  tokens?: string[];

  @ApiPropertyOptional({ type: [Number], description: "Per token: 1 gender, 2 number, 3 pronoun (fbt's number mask 28 is read as 2)" })
  @IsOptional() @IntArray() @IsArray() @ArrayMaxSize(10) @IsIn([...Object.values(FBT_VARIATION_TYPES), FBT_NUMBER_MASK], { each: true, message: "types must be fbt variation types (1 gender, 2 number, 3 pronoun; fbt's number mask 28 is read as 2)" })
  types?: number[];

  @ApiPropertyOptional({ type: [Number], description: "Per token: fbt's IntlVariations value (e.g. 4 one, 24 other, 1 male, 2 female)" })
  @IsOptional() @IntArray() @IsArray() @ArrayMaxSize(10) @IsIn([...FBT_VARIATION_VALUES], { each: true, message: `variations must be fbt variation values (${FBT_VARIATION_VALUES.join(', ')})` })
  variations?: number[];
}

export class TranslationSubmitMessage extends TranslationSubmitRequest {
  @ProjectField() project!: string;
}

export class TranslationQueryRequest {
  @ApiPropertyOptional({ description: 'Words searched in translations and their source phrases; without it, approved translations only' })
  @IsOptional() @IsString() @MaxLength(500) query?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Locale() locale?: string;
  @ApiPropertyOptional({ description: 'Only translations of this phrase hash' }) @IsOptional() @IsString() @MaxLength(100) hash?: string;
  @ApiPropertyOptional({ description: 'Member whose votes fill `voted`' }) @IsOptional() @IsString() @MaxLength(254) @Contributor() contributor?: string;
}

export class TranslationQueryMessage extends TranslationQueryRequest {
  @ProjectField() project!: string;
}

/** A member acting on one translation: vote, approve, reject. */
export class TranslationActionRequest {
  @ApiProperty({ description: 'Translation id' }) @Type(() => Number) @Required() @IsInt({ message: 'trid must be a translation id' }) @Min(1) @Max(MAX_TRANSLATION_ID, { message: 'trid must be a translation id' }) trid!: number;
  @ApiProperty() @Required() @IsString() @MaxLength(254) @Contributor() contributor!: string;
}

export class TranslationActionMessage extends TranslationActionRequest {
  @ProjectField() project!: string;
}

/** An administrator deciding all pending translations of one locale. */
export class BulkDecisionRequest {
  @ApiProperty({ example: 'cs_CZ' }) @Required() @IsString() @Locale() locale!: string;
  @ApiProperty() @Required() @IsString() @MaxLength(254) @Contributor() contributor!: string;
}

export class BulkDecisionMessage extends BulkDecisionRequest {
  @ProjectField() project!: string;
}

export class TranslationExportRequest {
  @ApiProperty({ example: 'cs_CZ' }) @Required() @IsString() @Locale() locale!: string;
}

export class TranslationExportMessage extends TranslationExportRequest {
  @ProjectField() project!: string;
}


/** Existing translations in fbt's translation-file shape (what the export answers), imported as pending. */
export class TranslationUploadRequest {
  @ApiProperty({ description: 'JSON of an fbt translation file: {"fb-locale", translations: {<phrase hash>: {tokens, types, translations: [{translation, variations}]}}}' })
  @Transform(({ value }) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : value))
  @Required() @IsString({ message: 'translations must be a JSON string' }) @MaxLength(1_000_000)
  translations!: string;
  @ApiPropertyOptional({ description: 'Overrides the file\'s "fb-locale"' }) @IsOptional() @IsString() @Locale() locale?: string;
  @ApiProperty() @Required() @IsString() @MaxLength(254) @Contributor() contributor!: string;
}

export class TranslationUploadMessage extends TranslationUploadRequest {
  @ProjectField() project!: string;
}
