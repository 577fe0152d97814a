import { ApiProperty } from '@nestjs/swagger';
import { Matches, MaxLength } from 'class-validator';
import { Required } from '../validation';

/**
 * A country prefix, then a token: ours are lowercase (`cz_m500011`), the hosted service's are
 * mixed-case base64url (`sk_WbilvhDEDokFTWk0FbNjeQ`, the PHP SDK's README). An id a user kept
 * from there is well-formed and unknown here: a 404, not a 400 on its shape.
 */
export const PLACE_ID_PATTERN = /^(sk|cz|pl|at|ch|li)_[0-9A-Za-z][0-9A-Za-z_-]{0,60}$/;

export class PlaceDetailRequest {
  @ApiProperty({ example: 'cz_m500011' })
  @Required()
  @MaxLength(64, { message: 'place_id is too long' })
  @Matches(PLACE_ID_PATTERN, { message: 'place_id must be a country prefix (sk_, cz_, ...) followed by a place token' })
  place_id!: string;
}
