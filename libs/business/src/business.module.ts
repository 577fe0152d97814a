import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { SERVICE_READINESS, ServiceHealthController } from '@lookup/shared/runtime';
import { BUSINESS_STORE, BusinessStore } from './store/business.store';
import { createBusinessStore } from './store/business-store.factory';
import { BusinessService } from './business.service';
import { BusinessHandlers } from './business.handlers';
import { BusinessDataBootstrap } from './business-data.bootstrap';

@Injectable()
class BusinessStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(BUSINESS_STORE) private readonly store: BusinessStore) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

export interface BusinessModuleOptions {
  config: AppConfig;
  /** Tests hand in a store of their own (e.g. an index with a unique prefix). */
  store?: BusinessStore;
}

/** Business handlers and their store; the standalone profile mounts this without probe routes. */
@Module({})
export class BusinessModule {
  static forRoot(options: BusinessModuleOptions): DynamicModule {
    return {
      module: BusinessModule,
      imports: [ConfigModule.forRoot(options.config)],
      controllers: [BusinessHandlers],
      providers: [
        {
          provide: BUSINESS_STORE,
          useFactory: async () => {
            const store = options.store ?? createBusinessStore(options.config);
            await store.init();
            return store;
          },
        },
        { provide: SERVICE_READINESS, inject: [BUSINESS_STORE], useFactory: (s: BusinessStore) => () => s.ping() },
        BusinessService,
        BusinessDataBootstrap,
        BusinessStoreCloser,
      ],
      exports: [BUSINESS_STORE, SERVICE_READINESS, BusinessService],
    };
  }
}

/** The business app: its handlers plus probe routes. */
@Module({})
export class BusinessServiceModule {
  static forRoot(options: BusinessModuleOptions): DynamicModule {
    return { module: BusinessServiceModule, imports: [BusinessModule.forRoot(options)], controllers: [ServiceHealthController] };
  }
}
