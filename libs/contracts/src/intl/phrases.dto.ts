import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Required } from '../validation';
import { ProjectField } from './intl-scope';

export const HASH_CHECKS = ['strict', 'report'] as const;
export type HashCheck = (typeof HASH_CHECKS)[number];

export class PhraseUploadRequest {
  @ApiProperty({ description: "JSON of fbt's collection output: its `phrases` array, or the whole `{phrases, childParentMappings}` object" })
  // A JSON body may carry the collection itself instead of its JSON text.
  @Transform(({ value }) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : value))
  @Required()
  @IsString({ message: 'native_strings must be a JSON string' })
  @MaxLength(1_000_000)
  native_strings!: string;

  @ApiPropertyOptional({ enum: HASH_CHECKS, default: 'strict', description: 'strict: a hash that is not fbt\'s md5 of text+desc refuses the upload; report: saved, and listed in `hash_mismatches`' })
  @IsOptional()
  @IsIn(HASH_CHECKS)
  hash_check?: HashCheck;
}

export class PhraseUploadMessage extends PhraseUploadRequest {
  @ProjectField() project!: string;
}

export class PhraseQueryRequest {
  @ApiPropertyOptional({ description: 'Words searched in text and description (case and diacritics ignored); without it, all phrases' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  query?: string;
}

export class PhraseQueryMessage extends PhraseQueryRequest {
  @ProjectField() project!: string;
}
