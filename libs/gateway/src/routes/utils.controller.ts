import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { IpDetails, IpDetailsRequest, Subjects, TranslateRequest, TranslatorResult, VatCheckRequest, VatCheckResult } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/** Translator, IP details and EU VAT check: each call counts against the key's monthly query limit. */
@ApiTags('utils')
@Controller('v1/utils')
export class UtilsController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('translator/translate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Translate a text with the configured provider (Google, DeepL or LibreTranslate)' })
  @ApiBody({ type: TranslateRequest })
  @ApiOkResponse({ type: TranslatorResult })
  translate(@Params(TranslateRequest) dto: TranslateRequest, @CurrentKey() key: AuthenticatedKey): Promise<TranslatorResult> {
    return this.forwarder.forward(Subjects.utils.translate, dto, key, 'query');
  }

  @Get('ip/:ip_address')
  @ApiOperation({ summary: 'Location, organisation and hostname of an IP address (IP geolocation by DB-IP)' })
  @ApiParam({ name: 'ip_address', example: '147.32.1.1' })
  @ApiOkResponse({ type: IpDetails })
  ip(@Params(IpDetailsRequest) dto: IpDetailsRequest, @CurrentKey() key: AuthenticatedKey): Promise<IpDetails> {
    return this.forwarder.forward(Subjects.utils.ip, dto, key, 'query');
  }

  @Post('vies/check-vat-number')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check an EU VAT number: format and check digits, then the EU VIES service' })
  @ApiBody({ type: VatCheckRequest })
  @ApiOkResponse({ type: VatCheckResult })
  checkVatNumber(@Params(VatCheckRequest) dto: VatCheckRequest, @CurrentKey() key: AuthenticatedKey): Promise<VatCheckResult> {
    return this.forwarder.forward(Subjects.utils.vies, dto, key, 'query');
  }
}
