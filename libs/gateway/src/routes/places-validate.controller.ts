import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlaceValidateRequest, PlaceValidation, Subjects } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { withCaller } from './places-search.controller';
import { Params } from '../http/request-params';
import { CallerIp, CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

const SUMMARY = 'Validate a typed address against the register (the clients\' places.validate); counted as a search';
const DESCRIPTION =
  'verdict: exact (the address as typed), corrected (found, with `corrections`: each part the register writes differently or that was missing, ' +
  'given vs value), ambiguous (several equally good addresses in `candidates`, up to `limit`), not_found. `status` says the same in the PHP SDK\'s ' +
  'Validation vocabulary: valid, unsure, many / insufficient (no house number typed), invalid.';

/** `places.validate`, POST as the clients send it, GET with a query string. Registered before `:place_id`. */
@ApiTags('places')
@Controller('v1/places')
export class PlacesValidateController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({ summary: SUMMARY, description: DESCRIPTION })
  @ApiBody({ type: PlaceValidateRequest })
  @ApiOkResponse({ type: PlaceValidation })
  validate(@Params(PlaceValidateRequest) dto: PlaceValidateRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<PlaceValidation> {
    return this.forwarder.forward(Subjects.places.validate, withCaller(dto, ip), key, 'search');
  }

  @Get('validate')
  @ApiOperation({ summary: SUMMARY, description: 'The same as POST, parameters in the query string.' })
  @ApiOkResponse({ type: PlaceValidation })
  validateGet(@Params(PlaceValidateRequest) dto: PlaceValidateRequest, @CurrentKey() key: AuthenticatedKey, @CallerIp() ip?: string): Promise<PlaceValidation> {
    return this.validate(dto, key, ip);
  }
}

