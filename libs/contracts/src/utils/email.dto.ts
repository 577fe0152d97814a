import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Required } from '../validation';

/**
 * Longest `email` accepted as a parameter. Addresses over 254 octets are answered with an
 * `invalid` verdict, not refused; this only stops abuse of the parameter itself.
 */
export const EMAIL_PARAM_MAX_LENGTH = 512;

/** `POST /v1/utils/email/validate`. */
export class EmailValidateRequest {
  @ApiProperty({ example: 'info@example.com', description: 'Address to check; internationalised addresses are accepted' })
  @Required()
  @IsString({ message: 'email must be a string' })
  @MaxLength(EMAIL_PARAM_MAX_LENGTH, { message: `email must be at most ${EMAIL_PARAM_MAX_LENGTH} characters` })
  email!: string;
}

export const EmailVerdicts = ['safe', 'risky', 'invalid', 'unknown'] as const;
export type EmailVerdict = (typeof EmailVerdicts)[number];

/** The E-mail check result, fields in the spec's order. */
export class EmailCheckResult {
  @ApiProperty({ description: 'Stable id: the first 24 hex digits of SHA-256 over the normalised address' })
  email_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'Local part' }) username!: string;
  @ApiProperty({ description: 'Domain, lower case, in Unicode form for internationalised names' }) domain!: string;
  @ApiProperty({ enum: EmailVerdicts }) reachable!: EmailVerdict;
  @ApiProperty({ description: 'Domain of a disposable (temporary) mail service' }) disposable!: boolean;
  @ApiProperty({ description: 'Local part names a role (info, admin, ...) rather than a person' }) roleAccount!: boolean;
  @ApiProperty({ description: 'The domain has a mail server: MX records, or an A/AAAA record as implicit MX' }) mxValid!: boolean;
  @ApiProperty({ description: 'The SMTP dialogue with the best mail server got as far as RCPT TO' }) connection!: boolean;
  @ApiProperty({ description: 'The mailbox is over its quota (452/552)' }) inboxFull!: boolean;
  @ApiProperty({ description: 'The server accepts any local part (a random one was accepted)' }) catchAll!: boolean;
  @ApiProperty({ description: 'The server accepted the recipient' }) deliverable!: boolean;
  @ApiProperty({ description: 'The server says the mailbox is disabled' }) disabled!: boolean;
  @ApiProperty({ description: 'Domain of a free mail provider' }) free!: boolean;
  @ApiProperty({ description: 'Milliseconds the check took' }) took!: number;
}
