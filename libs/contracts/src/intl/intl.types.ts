import { ApiProperty } from '@nestjs/swagger';

/**
 * `approval_status` of a translation. `pending`: submitted, collecting votes; `approved`: by
 * votes (INTL_APPROVAL_VOTES) or by an administrator, the only state exported and returned by
 * a query without `query`; `rejected`: by an administrator, never exported.
 */
export const ApprovalStatuses = { pending: 'pending', approved: 'approved', rejected: 'rejected' } as const;
export type ApprovalStatus = (typeof ApprovalStatuses)[keyof typeof ApprovalStatuses];

export const MemberRoles = ['translator', 'administrator'] as const;
export type MemberRole = (typeof MemberRoles)[number];

/** fbt locales are `xx_XX` (some have a three-letter language, e.g. `fil_PH`). */
export const LOCALE_PATTERN = /^[a-z]{2,3}_[A-Z]{2}$/;

/** fbt's IntlFbtVariationType: what a token varies by. */
export const FBT_VARIATION_TYPES = { gender: 1, number: 2, pronoun: 3 } as const;
/** fbt's variation mask of a number token (`IntlVariations.Mask.NUMBER`), what translation files carry as its type. */
export const FBT_NUMBER_MASK = 28;
/** fbt's IntlVariations values (number: ZERO..OTHER, gender: MALE, FEMALE, UNKNOWN), plus 0 for "any". */
export const FBT_VARIATION_VALUES = [0, 1, 2, 3, 4, 8, 12, 16, 20, 24] as const;

export class PhraseSource {
  @ApiProperty({ enum: ['text', 'table'] }) type!: 'text' | 'table';
  @ApiProperty({ description: 'The phrase in fbt form: the text itself, or the JSON of the jsfbt table' }) jsfbt!: string;
}

export class Phrase {
  @ApiProperty() id!: number;
  @ApiProperty({ nullable: true, type: Number }) parent_id!: number | null;
  @ApiProperty({ enum: ['phrase'] }) object!: 'phrase';
  @ApiProperty({ type: PhraseSource }) source!: PhraseSource;
  @ApiProperty({ description: "fbt's hash of text and description (md5, base64)" }) hash!: string;
  @ApiProperty() text!: string;
  @ApiProperty() description!: string;
  @ApiProperty() author!: string;
  @ApiProperty() project!: string;
  @ApiProperty({ example: '2026-11-22 10:00:00' }) created_at!: string;
}

export class Translation {
  @ApiProperty() id!: number;
  @ApiProperty() phrase_id!: number;
  @ApiProperty({ enum: ['translation'] }) object!: 'translation';
  @ApiProperty() phrase_hash!: string;
  @ApiProperty() hash!: string;
  @ApiProperty() translation!: string;
  @ApiProperty({ enum: Object.values(ApprovalStatuses) }) approval_status!: ApprovalStatus;
  @ApiProperty({ type: [Number] }) variations!: number[];
  @ApiProperty({ type: [String], description: 'Token names (fbt keeps them as strings)' }) tokens!: string[];
  @ApiProperty({ type: [Number] }) types!: number[];
  @ApiProperty({ example: 'cs_CZ' }) locale!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ description: 'E-mail of the contributor who submitted it' }) author!: string;
  @ApiProperty({ description: 'Whether the `contributor` of the request has voted for it' }) voted!: boolean;
  @ApiProperty() votes!: number;
}

export class UploadResult {
  @ApiProperty() inserted!: number;
}

export class CountResult {
  @ApiProperty() count!: number;
}

/** What fbt's translate step reads (`fbt-translate --translations <file>`): one locale's group. */
export interface FbtTranslationGroup {
  'fb-locale': string;
  translations: Record<string, { tokens: string[]; types: number[]; translations: Array<{ translation: string; variations: Record<string, number> }> }>;
}
