import { DynamicModule, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects } from '@lookup/contracts';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { RpcHandlers } from '@lookup/shared/transport';
import { SERVICE_READINESS, ServiceHealthController } from '@lookup/shared/runtime';

/** The business service answers its health subject; the business endpoints are issue #6. */
@RpcHandlers()
class BusinessHealthHandlers {
  @MessagePattern(Subjects.business.health)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}

@Module({})
export class BusinessServiceModule {
  static forRoot(options: { config: AppConfig }): DynamicModule {
    return {
      module: BusinessServiceModule,
      imports: [ConfigModule.forRoot(options.config)],
      controllers: [BusinessHealthHandlers, ServiceHealthController],
      providers: [{ provide: SERVICE_READINESS, useValue: async () => undefined }],
    };
  }
}
