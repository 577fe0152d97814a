import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { GATEWAY_DB } from './keys.constants';
import { KEY_ENTITIES, keysDataSourceOptions } from './keys.store';

/** Keys and usage on their own connection; shared by the gateway and the keys CLI. */
@Module({})
export class KeysModule {
  /** `retryAttempts`: how often TypeORM retries a failed connect (Nest's default 9, 3 s apart; the CLI says why at once: 0). */
  static forRoot(config: AppConfig, opts: { retryAttempts?: number } = {}): DynamicModule {
    return {
      module: KeysModule,
      imports: [ConfigModule.forRoot(config), TypeOrmModule.forRoot({ ...keysDataSourceOptions(config), ...opts }), TypeOrmModule.forFeature(KEY_ENTITIES, GATEWAY_DB)],
      providers: [ApiKeyRepository, ApiKeyService],
      exports: [ApiKeyRepository, ApiKeyService],
    };
  }
}
