import { isIP } from 'node:net';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  MunicipalityQueryRequest,
  Place,
  PlaceQueryRequest,
  PlaceReverseRequest,
  PlaceSearchBase,
  PostalQueryRequest,
  StreetQueryRequest,
  Subjects,
} from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CallerIp, CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/**
 * The search with the caller's address in `caller_ip` (always ours: a value the caller sent is
 * replaced), which places locates for `around_latlng_via_ip=true`.
 */
export function withCaller<T extends PlaceSearchBase>(dto: T, ip: string | undefined): T {
  // Only when asked for: the caller's address is not sent around otherwise. A zone id
  // (`fe80::1%eth0`) is not part of the address.
  const plain = ip?.split('%')[0];
  dto.caller_ip = dto.around_latlng_via_ip !== undefined && plain && isIP(plain) ? plain : undefined;
  return dto;
}

/** Place searches, each counted as a search. Registered before `:place_id` so these static paths win. */
@ApiTags('places')
@Controller('v1/places')
export class PlacesSearchController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Addresses by any part of them (autocomplete)' })
  @ApiBody({ type: PlaceQueryRequest })
  @ApiOkResponse({ type: [Place] })
  query(@Params(PlaceQueryRequest) dto: PlaceQueryRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.query, withCaller(dto, ip), key, 'search');
  }

  @Post('street')
  @HttpCode(200)
  @ApiOperation({ summary: 'Streets by name' })
  @ApiBody({ type: StreetQueryRequest })
  @ApiOkResponse({ type: [Place] })
  street(@Params(StreetQueryRequest) dto: StreetQueryRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.street, withCaller(dto, ip), key, 'search');
  }

  @Post('municipality')
  @HttpCode(200)
  @ApiOperation({ summary: 'Municipalities by name' })
  @ApiBody({ type: MunicipalityQueryRequest })
  @ApiOkResponse({ type: [Place] })
  municipality(@Params(MunicipalityQueryRequest) dto: MunicipalityQueryRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.municipality, withCaller(dto, ip), key, 'search');
  }

  @Post('postal')
  @HttpCode(200)
  @ApiOperation({ summary: 'Postal codes, whole or partial, with or without the space' })
  @ApiBody({ type: PostalQueryRequest })
  @ApiOkResponse({ type: [Place] })
  postal(@Params(PostalQueryRequest) dto: PostalQueryRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.postal, withCaller(dto, ip), key, 'search');
  }

  @Post('reverse')
  @HttpCode(200)
  @ApiOperation({ summary: 'Addresses near a point (lat/lng or S-JTSK jtskX/jtskY), nearest first' })
  @ApiBody({ type: PlaceReverseRequest })
  @ApiOkResponse({ type: [Place] })
  reverse(@Params(PlaceReverseRequest) dto: PlaceReverseRequest, @CurrentKey() key: AuthenticatedKey): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.reverse, dto, key, 'search');
  }
}
