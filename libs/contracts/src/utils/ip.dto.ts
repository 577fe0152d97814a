import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIP } from 'class-validator';
import { Required } from '../validation';

export class IpDetailsRequest {
  @ApiProperty({ description: 'IPv4 or IPv6 address', example: '147.32.1.1' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @Required()
  @IsIP(undefined, { message: 'ip_address must be an IPv4 or IPv6 address' })
  ip_address!: string;
}

/**
 * IP details. Fields without a value are null. Private and reserved addresses (RFC 1918,
 * loopback, link-local, documentation ranges, ...) answer 200 with every location field null,
 * `bogon: true` and `reserved_range` naming the range, like the well-known IP info services.
 */
export class IpDetails {
  @ApiProperty() ip!: string;
  @ApiProperty({ nullable: true, type: String }) hostname!: string | null;
  @ApiProperty({ nullable: true, type: String }) city!: string | null;
  @ApiProperty({ nullable: true, type: String }) region!: string | null;
  @ApiProperty({ nullable: true, type: String }) country_code!: string | null;
  @ApiProperty({ nullable: true, type: Number }) latitude!: number | null;
  @ApiProperty({ nullable: true, type: Number }) longitude!: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'AS2852 CESNET z.s.p.o.' }) org!: string | null;
  @ApiProperty({ nullable: true, type: String }) postal!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Europe/Prague' }) timezone!: string | null;
  @ApiPropertyOptional({ description: 'Present and true for private and reserved addresses' }) bogon?: true;
  @ApiPropertyOptional({ description: 'The reserved range, e.g. private, loopback, linkLocal' }) reserved_range?: string;
}
