import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, VatCheckRequest, VatCheckResult } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { ViesService } from './vies.service';

@RpcHandlers()
export class ViesHandlers {
  constructor(private readonly vies: ViesService) {}

  @MessagePattern(Subjects.utils.vies)
  check(@Payload() dto: VatCheckRequest): Promise<VatCheckResult> {
    return this.vies.check(dto);
  }
}
