import { AppConfig, loadConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { createTestSchema } from './postgres';
import { serverUrl } from './servers';
import { uniqueName } from './tmp';

export interface DistributedTestEnv {
  config: AppConfig;
  /** Drops the PostgreSQL schema and the OpenSearch indexes under the env's prefix. */
  dispose(): Promise<void>;
}

/**
 * A distributed-profile configuration of its own for one e2e suite: a fresh PostgreSQL schema,
 * a unique NATS subject prefix and a unique index prefix, so suites never see each other.
 */
export async function distributedTestEnv(label: string, overrides: Partial<Record<keyof AppConfig, unknown>> = {}): Promise<DistributedTestEnv> {
  const pg = await createTestSchema(label);
  const config = loadConfig(
    {},
    {
      PROFILE: 'distributed',
      HOST: '127.0.0.1',
      PORT: 0,
      LOG_LEVEL: 'error',
      DATABASE_URL: pg.url,
      DATABASE_SCHEMA: pg.schema,
      NATS_URL: serverUrl('nats'),
      NATS_SUBJECT_PREFIX: uniqueName(label),
      OPENSEARCH_URL: serverUrl('opensearch'),
      INDEX_PREFIX: uniqueName(label),
      ...overrides,
    },
  );
  return {
    config,
    dispose: async () => {
      const client = createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: 10000 });
      await client.indices.delete({ index: `${config.INDEX_PREFIX}-*` }).catch(() => undefined);
      await client.close();
      await pg.drop();
    },
  };
}
