import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EmailCheckResult, EmailValidateRequest, Subjects } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/** `POST /v1/utils/email/validate`: a utility call, counted against the monthly query limit. */
@ApiTags('utils')
@Controller('v1/utils/email')
export class EmailController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check an e-mail address: syntax, MX, SMTP mailbox probe, disposable, role and free-provider lists' })
  @ApiBody({ type: EmailValidateRequest })
  @ApiOkResponse({ type: EmailCheckResult })
  validate(@Params(EmailValidateRequest) dto: EmailValidateRequest, @CurrentKey() key: AuthenticatedKey): Promise<EmailCheckResult> {
    return this.forwarder.forward(Subjects.utils.email, dto, key, 'query');
  }
}
