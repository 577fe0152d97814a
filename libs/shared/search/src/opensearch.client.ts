import { Client } from '@opensearch-project/opensearch';

export interface OpenSearchOptions {
  url: string;
  timeoutMs: number;
}

/**
 * The REST client. We only use the query DSL and index/alias APIs that OpenSearch 2.x/3.x
 * and Elasticsearch 8/9 share; the client does no product check, so it talks to both.
 */
export function createOpenSearchClient(options: OpenSearchOptions): Client {
  return new Client({ node: options.url, requestTimeout: options.timeoutMs, maxRetries: 1 });
}

export type { Client as OpenSearchClient } from '@opensearch-project/opensearch';
