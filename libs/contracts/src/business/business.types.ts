import { ApiProperty } from '@nestjs/swagger';

/** The spec's Business entity; `null` where the register has no value. */
export class Business {
  @ApiProperty({ example: 'cz_00177041' }) business_id!: string;
  @ApiProperty({ example: '<em>Škoda</em> Auto a.s.' }) highlight!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: '1990-11-20', nullable: true, type: String }) established_on!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) terminated_on!: string | null;
  @ApiProperty({ example: '00177041' }) cin!: string;
  @ApiProperty({ nullable: true, type: String }) tin!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Only when the register says the VAT registration is active' }) vatin!: string | null;
  @ApiProperty() formatted_address!: string;
  @ApiProperty({ nullable: true, type: String }) street!: string | null;
  @ApiProperty() formatted_street!: string;
  @ApiProperty({ nullable: true, type: String }) street_number!: string | null;
  @ApiProperty({ nullable: true, type: String }) building_number!: string | null;
  @ApiProperty() formatted_number!: string;
  @ApiProperty({ nullable: true, type: String, example: '293 01' }) postal_code!: string | null;
  @ApiProperty({ nullable: true, type: String }) municipality!: string | null;
  @ApiProperty() legal_form!: string;
  @ApiProperty({ description: 'Industry (section of the main NACE activity); may be empty' }) segment!: string;
  @ApiProperty() organization_size!: string;
  @ApiProperty({ enum: ['business'] }) object!: 'business';
  @ApiProperty() formatted_country!: string;
  @ApiProperty({ example: 'CZ' }) country!: string;
}
