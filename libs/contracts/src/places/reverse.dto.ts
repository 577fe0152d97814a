import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, Max, Min, registerDecorator, ValidateIf } from 'class-validator';
import { COUNTRY_CODES, CountryCode } from '../countries';
import { Required } from '../validation';
import { IsCountryList, ToList, ToNumber } from './search-params';
import { DEFAULT_DISTINCT_M, MAX_DISTINCT_M, MAX_LIMIT } from './search.dto';

const noLatLng = (o: PlaceReverseRequest) => o.jtskX === undefined && o.jtskY === undefined;
const noJtsk = (o: PlaceReverseRequest) => o.lat === undefined && o.lng === undefined;
// S-JTSK in either sign convention: |X| about 930 000 to 1 230 000, |Y| about 430 000 to 910 000 (with margin).
const JTSK_MIN = 100_000;
const JTSK_MAX = 1_400_000;

function IsJtskAxis(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isJtskAxis',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be an S-JTSK coordinate in metres (${JTSK_MIN} to ${JTSK_MAX}, either sign)` },
      validator: { validate: (v: unknown) => typeof v === 'number' && Math.abs(v) >= JTSK_MIN && Math.abs(v) <= JTSK_MAX },
    });
}

/** `POST /v1/places/reverse`: lat/lng (WGS84) or jtskX/jtskY (S-JTSK, either sign). */
export class PlaceReverseRequest {
  @ApiPropertyOptional({ example: '49.9388' })
  @ValidateIf(noLatLng)
  @ToNumber()
  @Required({ message: 'lat and lng (or jtskX and jtskY) are required' })
  @IsNumber({}, { message: 'lat must be decimal degrees' })
  @Min(-90, { message: 'lat must be between -90 and 90' })
  @Max(90, { message: 'lat must be between -90 and 90' })
  lat?: number;

  @ApiPropertyOptional({ example: '17.9026' })
  @ValidateIf(noLatLng)
  @ToNumber()
  @Required({ message: 'lat and lng (or jtskX and jtskY) are required' })
  @IsNumber({}, { message: 'lng must be decimal degrees' })
  @Min(-180, { message: 'lng must be between -180 and 180' })
  @Max(180, { message: 'lng must be between -180 and 180' })
  lng?: number;

  @ApiPropertyOptional({ example: '1095469.93', description: 'S-JTSK X (the larger number), positive or negative' })
  @ValidateIf((o: PlaceReverseRequest) => noJtsk(o) || o.jtskX !== undefined)
  @ToNumber()
  @Required({ message: 'jtskX and jtskY are required when lat and lng are not given' })
  @IsNumber({}, { message: 'jtskX must be a number of metres' })
  @IsJtskAxis()
  jtskX?: number;

  @ApiPropertyOptional({ example: '491234.11', description: 'S-JTSK Y (the smaller number), positive or negative' })
  @ValidateIf((o: PlaceReverseRequest) => noJtsk(o) || o.jtskY !== undefined)
  @ToNumber()
  @Required({ message: 'jtskX and jtskY are required when lat and lng are not given' })
  @IsNumber({}, { message: 'jtskY must be a number of metres' })
  @IsJtskAxis()
  jtskY?: number;

  @ApiPropertyOptional({ example: '10', default: DEFAULT_DISTINCT_M, description: `Maximum distance in metres (up to ${MAX_DISTINCT_M})` })
  @IsOptional()
  @ToNumber()
  @IsNumber({}, { message: `distinct must be a distance in metres, up to ${MAX_DISTINCT_M}` })
  @Min(0, { message: `distinct must be a distance in metres, up to ${MAX_DISTINCT_M}` })
  @Max(MAX_DISTINCT_M, { message: `distinct must be a distance in metres, up to ${MAX_DISTINCT_M}` })
  distinct?: number;

  @ApiPropertyOptional({ example: 'CZ', description: `One or several of ${COUNTRY_CODES.join(', ')}` })
  @IsOptional()
  @ToList(true)
  @IsCountryList()
  country?: CountryCode[];

  @ApiPropertyOptional({ example: '7', description: `1 to ${MAX_LIMIT}` })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  @Max(MAX_LIMIT, { message: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  limit?: number;
}
