import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Place, PlaceDetailRequest, Subjects } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/** `POST /v1/places/{place_id}`: one Place, counted as a search. Registered after the static routes. */
@ApiTags('places')
@Controller('v1/places')
export class PlacesDetailController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post(':place_id')
  @HttpCode(200)
  @ApiOperation({ summary: 'One place by its identifier' })
  @ApiParam({ name: 'place_id', example: 'cz_m500011' })
  @ApiOkResponse({ type: Place })
  detail(@Params(PlaceDetailRequest) dto: PlaceDetailRequest, @CurrentKey() key: AuthenticatedKey): Promise<Place> {
    return this.forwarder.forward(Subjects.places.detail, dto, key, 'search');
  }
}
