import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, TranslateRequest, TranslatorResult } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { TranslatorService } from './translator.service';

@RpcHandlers()
export class TranslatorHandlers {
  constructor(private readonly translator: TranslatorService) {}

  @MessagePattern(Subjects.utils.translate)
  translate(@Payload() dto: TranslateRequest): Promise<TranslatorResult> {
    return this.translator.translate(dto);
  }
}
