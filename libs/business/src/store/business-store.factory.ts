import { join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { BusinessStore } from './business.store';
import { SqliteBusinessStore } from './sqlite-business.store';
import { OpenSearchBusinessStore } from './opensearch-business.store';

/** The profile picks the engine; the service never knows which. */
export function createBusinessStore(config: AppConfig): BusinessStore {
  if (config.PROFILE === 'distributed') {
    return new OpenSearchBusinessStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: config.OPENSEARCH_TIMEOUT_MS }), config.INDEX_PREFIX);
  }
  return new SqliteBusinessStore(join(config.DATA_DIR, 'business.sqlite'));
}
