import { join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { PlacesStore } from './places.store';
import { SqlitePlacesStore } from './sqlite-places.store';
import { OpenSearchPlacesStore } from './opensearch-places.store';

/** The profile picks the engine; the service never knows which. */
export function createPlacesStore(config: AppConfig): PlacesStore {
  if (config.PROFILE === 'distributed') {
    return new OpenSearchPlacesStore(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: config.OPENSEARCH_TIMEOUT_MS }), config.INDEX_PREFIX);
  }
  return new SqlitePlacesStore(join(config.DATA_DIR, 'places.sqlite'));
}
