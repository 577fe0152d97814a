import { MessagePattern, Payload } from '@nestjs/microservices';
import { Business, BusinessDetailRequest, BusinessIdentifierRequest, BusinessQueryRequest, Subjects } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { BusinessService } from './business.service';

@RpcHandlers()
export class BusinessHandlers {
  constructor(private readonly business: BusinessService) {}

  @MessagePattern(Subjects.business.query)
  query(@Payload() dto: BusinessQueryRequest): Promise<Business[]> {
    return this.business.byName(dto);
  }

  @MessagePattern(Subjects.business.identifier)
  identifier(@Payload() dto: BusinessIdentifierRequest): Promise<Business[]> {
    return this.business.byIdentifier(dto);
  }

  @MessagePattern(Subjects.business.detail)
  detail(@Payload() dto: BusinessDetailRequest): Promise<Business[]> {
    return this.business.detail(dto);
  }

  @MessagePattern(Subjects.business.health)
  health(): Promise<{ status: 'ok'; engine: string }> {
    return this.business.health();
  }
}
