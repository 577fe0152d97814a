import { DynamicModule, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects } from '@lookup/contracts';
import { APP_CONFIG, AppConfig, ConfigModule } from '@lookup/shared/config';
import { SERVICE_READINESS, ServiceHealthController } from '@lookup/shared/runtime';
import { RpcHandlers } from '@lookup/shared/transport';
import { TRANSLATION_PROVIDER } from './translator/translation.provider';
import { createTranslationProvider } from './translator/translation-provider.factory';
import { TranslatorService } from './translator/translator.service';
import { TranslatorHandlers } from './translator/translator.handlers';
import { VIES_CLIENT, ViesService } from './vies/vies.service';
import { ViesClient } from './vies/vies.client';
import { ViesHandlers } from './vies/vies.handlers';
import { IpDetailsService, IpSources } from './ip/ip-details.service';
import { IpHandlers } from './ip/ip.handlers';
import { ipSourcesFromConfig } from './ip/ip.providers';
import { EmailModule } from './email/email.module';

export interface UtilsModuleOptions {
  config: AppConfig;
}

/** `utils.health`: the gateway's readiness ping; ready once the IP databases are open. */
@RpcHandlers()
export class UtilsHealthHandlers {
  constructor(private readonly ip: IpSources) {}

  @MessagePattern(Subjects.utils.health)
  async health(): Promise<{ status: 'ok' }> {
    await this.ip.ready();
    return { status: 'ok' };
  }
}

/**
 * Opens the IP databases during boot (the ASN tables take about a second to parse, once per
 * process), so no request waits for them and readiness never flaps. A missing database fails the
 * boot with a clear message.
 */
@Injectable()
class IpWarmup implements OnApplicationBootstrap {
  constructor(private readonly sources: IpSources) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.sources.ready();
  }
}

/** The utility area: translator, IP details, EU VAT check and the e-mail check, one handler class each. */
@Module({})
export class UtilsModule {
  static forRoot(options: UtilsModuleOptions): DynamicModule {
    const { config } = options;
    return {
      module: UtilsModule,
      imports: [ConfigModule.forRoot(config), EmailModule],
      controllers: [UtilsHealthHandlers, TranslatorHandlers, ViesHandlers, IpHandlers],
      providers: [
        { provide: TRANSLATION_PROVIDER, useFactory: () => createTranslationProvider(config) },
        TranslatorService,
        {
          provide: VIES_CLIENT,
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) =>
            new ViesClient({
              baseUrl: c.VIES_URL,
              timeoutMs: c.VIES_TIMEOUT_MS,
              // Retries end before the gateway stops waiting, so the caller gets our answer, not a transport timeout.
              deadlineMs: Math.max(100, Math.min(c.VIES_DEADLINE_MS, c.TRANSPORT_TIMEOUT_MS - 300)),
              retries: c.VIES_RETRIES,
              retryBaseMs: c.VIES_RETRY_BASE_MS,
            }),
        },
        ViesService,
        { provide: IpSources, useFactory: () => ipSourcesFromConfig(config) },
        IpDetailsService,
        IpWarmup,
        { provide: SERVICE_READINESS, inject: [IpSources], useFactory: (ip: IpSources) => () => ip.ready() },
      ],
      exports: [SERVICE_READINESS, IpSources],
    };
  }
}

/** The utils app: the area's handlers plus probe routes. */
@Module({})
export class UtilsServiceModule {
  static forRoot(options: UtilsModuleOptions): DynamicModule {
    return { module: UtilsServiceModule, imports: [UtilsModule.forRoot(options)], controllers: [ServiceHealthController] };
  }
}

