import { MessagePattern, Payload } from '@nestjs/microservices';
import { IpDetails, IpDetailsRequest, Subjects } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { IpDetailsService } from './ip-details.service';

@RpcHandlers()
export class IpHandlers {
  constructor(private readonly ip: IpDetailsService) {}

  @MessagePattern(Subjects.utils.ip)
  info(@Payload() dto: IpDetailsRequest): Promise<IpDetails> {
    return this.ip.details(dto.ip_address);
  }
}
