import { ApiProperty } from '@nestjs/swagger';
import { Matches, MaxLength } from 'class-validator';
import { Required } from '../validation';

export const PLACE_ID_PATTERN = /^(sk|cz|pl|at|ch|li)_[0-9a-z][0-9a-z-]{0,60}$/;

export class PlaceDetailRequest {
  @ApiProperty({ example: 'cz_m500011' })
  @Required()
  @MaxLength(64, { message: 'place_id is too long' })
  @Matches(PLACE_ID_PATTERN, { message: 'place_id must be a country prefix (sk_, cz_, ...) followed by a place token' })
  place_id!: string;
}
