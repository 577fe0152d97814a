import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Required } from '../validation';

/** Longest text one call may translate; providers cap a request at a few tens of kB. */
export const TRANSLATE_MAX_CHARS = 5000;
export const AUTO_LANGUAGE = 'auto';
/** A BCP-47-ish code as the providers write them (`en`, `pt-BR`, `zh-Hant`, `ZH_TW`); the provider's own list decides. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,4})?$/;

const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export class TranslateRequest {
  @ApiProperty({ description: 'Text to translate', example: 'Dobrý den' })
  @Required()
  @IsString({ message: 'q must be a string' })
  @MaxLength(TRANSLATE_MAX_CHARS, { message: `q is longer than ${TRANSLATE_MAX_CHARS} characters` })
  q!: string;

  @ApiPropertyOptional({ description: 'Source language code, or auto to detect it', default: AUTO_LANGUAGE, example: 'cs' })
  @trimmed()
  @IsOptional()
  @IsString({ message: 'sl must be a string' })
  @Matches(/^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,4})?)$/, { message: 'sl must be a language code such as en, pt-BR, or auto' })
  sl: string = AUTO_LANGUAGE;

  @ApiProperty({ description: 'Target language code', example: 'en' })
  @trimmed()
  @Required()
  @IsString({ message: 'tl must be a string' })
  @Matches(LANGUAGE_CODE, { message: 'tl must be a language code such as en or pt-BR' })
  tl!: string;
}

export class TranslatorResult {
  @ApiProperty({ example: 'Good afternoon' })
  translation!: string;
}
