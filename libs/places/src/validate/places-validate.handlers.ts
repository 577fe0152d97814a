import { MessagePattern, Payload } from '@nestjs/microservices';
import { PlaceValidateRequest, PlaceValidation, Subjects } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { PlacesValidateService } from './places-validate.service';

@RpcHandlers()
export class PlacesValidateHandlers {
  constructor(private readonly validation: PlacesValidateService) {}

  @MessagePattern(Subjects.places.validate)
  validate(@Payload() dto: PlaceValidateRequest): Promise<PlaceValidation> {
    return this.validation.validate(dto);
  }
}
