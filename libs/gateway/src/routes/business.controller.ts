import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Business, BusinessDetailRequest, BusinessIdentifierRequest, BusinessQueryRequest, Subjects } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/** Business searches, counted in the monthly search limit. Static routes before `:business_id`. */
@ApiTags('business')
@Controller('v1/business')
export class BusinessController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Legal entities and sole traders by name' })
  @ApiBody({ type: BusinessQueryRequest })
  @ApiOkResponse({ type: [Business] })
  query(@Params(BusinessQueryRequest) dto: BusinessQueryRequest, @CurrentKey() key: AuthenticatedKey): Promise<Business[]> {
    return this.forwarder.forward(Subjects.business.query, dto, key, 'search');
  }

  @Post('identifier')
  @HttpCode(200)
  @ApiOperation({ summary: 'Legal entities and sole traders by organisation id number (IČO), whole or typed so far' })
  @ApiBody({ type: BusinessIdentifierRequest })
  @ApiOkResponse({ type: [Business] })
  identifier(@Params(BusinessIdentifierRequest) dto: BusinessIdentifierRequest, @CurrentKey() key: AuthenticatedKey): Promise<Business[]> {
    // The PHP SDK's Business::detail($id) posts `business_id` here rather than to /{business_id}.
    if (dto.business_id !== undefined) return this.forwarder.forward(Subjects.business.detail, { business_id: dto.business_id }, key, 'search');
    return this.forwarder.forward(Subjects.business.identifier, dto, key, 'search');
  }

  @Post(':business_id')
  @HttpCode(200)
  @ApiOperation({ summary: 'One entity by its identifier, as an array of one' })
  @ApiParam({ name: 'business_id', example: 'cz_00177041' })
  @ApiOkResponse({ type: [Business] })
  detail(@Params(BusinessDetailRequest) dto: BusinessDetailRequest, @CurrentKey() key: AuthenticatedKey): Promise<Business[]> {
    return this.forwarder.forward(Subjects.business.detail, dto, key, 'search');
  }
}
