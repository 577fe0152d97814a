import { MessagePattern, Payload } from '@nestjs/microservices';
import { EmailCheckResult, EmailValidateRequest, Subjects } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { EmailCheckService } from './email-check.service';

@RpcHandlers()
export class EmailHandlers {
  constructor(private readonly checks: EmailCheckService) {}

  @MessagePattern(Subjects.utils.email)
  validate(@Payload() dto: EmailValidateRequest): Promise<EmailCheckResult> {
    return this.checks.check(dto.email);
  }
}
