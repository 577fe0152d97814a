import { AppConfig } from '@lookup/shared/config';
import { dataSourceOptions } from '@lookup/shared/database';
import { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { UsageEntity } from './usage.entity';
import { RateBucketEntity } from './rate-bucket.entity';
import { CreateApiKeys1763700000000, KeyPrefixAndRateLimits1764000000000, QuotaLeases1764500000000 } from './keys.migration';
import { GATEWAY_DB } from './keys.constants';

export const KEY_ENTITIES = [ApiKeyEntity, UsageEntity, RateBucketEntity];

export function keysDataSourceOptions(config: AppConfig): DataSourceOptions {
  return { ...dataSourceOptions(config, KEY_ENTITIES, [CreateApiKeys1763700000000, KeyPrefixAndRateLimits1764000000000, QuotaLeases1764500000000], GATEWAY_DB), name: GATEWAY_DB };
}
