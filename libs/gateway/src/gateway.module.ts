import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Services } from '@lookup/contracts';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { TRANSPORT_CLIENT, TransportClient } from '@lookup/shared/transport';
import { ApiKeyRepository } from './keys/api-key.repository';
import { ApiKeyService } from './keys/api-key.service';
import { KEY_OUTPUT, KeySeeder, stdoutKeyOutput } from './keys/key-seeder';
import { KeysModule } from './keys/keys.module';
import { QuotaService } from './quota/quota.service';
import { HttpErrorFilter } from './http/http-error.filter';
import { ApiKeyGuard } from './http/api-key.guard';
import { RateLimitGuard } from './ratelimit/rate-limit.guard';
import { MemoryTokenStore, PostgresTokenStore, TOKEN_STORE } from './ratelimit/token-store';
import { Forwarder } from './routes/forwarder.service';
import { UtilsController } from './routes/utils.controller';
import { EmailController } from './routes/email.controller';
import { PlacesCatalogueController } from './routes/places-catalogue.controller';
import { PlacesDetailController } from './routes/places-detail.controller';
import { PlacesSearchController } from './routes/places-search.controller';
import { PlacesValidateController } from './routes/places-validate.controller';
import { IntlController } from './routes/intl.controller';
import { BusinessController } from './routes/business.controller';
import { HealthController } from './health/health.controller';
import { READINESS_CHECKS, ReadinessCheck } from './health/readiness';

export interface GatewayModuleOptions {
  config: AppConfig;
  transport: TransportClient;
  /** Services whose health subject readiness pings. */
  services?: string[];
}

/** The HTTP surface: parse, authenticate, meter, validate, forward, render errors. */
@Module({})
export class GatewayModule {
  static forRoot(options: GatewayModuleOptions): DynamicModule {
    const services = options.services ?? [Services.places, Services.intl, Services.utils, Services.business];
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forRoot(options.config),
        KeysModule.forRoot(options.config),
      ],
      // Static routes before `:place_id`, so `/v1/places/regions` is never taken for an id.
      controllers: [HealthController, PlacesCatalogueController, PlacesSearchController, PlacesValidateController, PlacesDetailController, IntlController, EmailController, UtilsController, BusinessController],
      providers: [
        { provide: TRANSPORT_CLIENT, useValue: options.transport },
        { provide: KEY_OUTPUT, useValue: stdoutKeyOutput },
        KeySeeder,
        QuotaService,
        Forwarder,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        // Shared buckets in PostgreSQL (every replica already uses it for keys and quotas; no new
        // component); standalone is one process, so its memory is the shared place.
        {
          provide: TOKEN_STORE,
          inject: [ApiKeyRepository],
          useFactory: (repo: ApiKeyRepository) => (options.config.PROFILE === 'distributed' ? new PostgresTokenStore(repo) : new MemoryTokenStore()),
        },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        {
          provide: READINESS_CHECKS,
          inject: [ApiKeyRepository, ApiKeyService],
          useFactory: (repo: ApiKeyRepository, keys: ApiKeyService): ReadinessCheck[] => [
            { name: 'database', critical: false, check: () => repo.ping() },
            // Ready while the database answers, or while it is away and keys it confirmed are still
            // trusted (KEY_CACHE_TTL_SECONDS): those are served, quota uses counted locally.
            {
              name: 'keys',
              critical: true,
              check: () =>
                repo.ping().catch((err: unknown) => {
                  if (keys.trustedKeys() === 0) throw err;
                }),
            },
            ...services.map((s) => ({
              name: s,
              critical: false,
              check: () => options.transport.request(`${s}.health`, {}, { timeoutMs: 1500 }).then(() => undefined),
            })),
          ],
        },
      ],
      exports: [KeysModule, QuotaService],
    };
  }
}
