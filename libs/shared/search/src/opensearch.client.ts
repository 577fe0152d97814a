import { Client } from '@opensearch-project/opensearch';

export interface OpenSearchOptions {
  /** One node, or the nodes of a cluster comma-separated. */
  url: string;
  timeoutMs: number;
}

/** The nodes of `OPENSEARCH_URL` (one, or several comma-separated). */
export function openSearchNodes(url: string): string[] {
  return url.split(',').map((u) => u.trim()).filter(Boolean);
}

/**
 * A node the client found dead is tried again after this long (then 2x, at most
 * DEAD_NODE_RETRY_MAX_MS): a restarted node takes its share again within about a second, instead
 * of the client's default minute.
 */
export const DEAD_NODE_RETRY_MS = 1000;
export const DEAD_NODE_RETRY_MAX_MS = 2000;

/**
 * The REST client. We only use the query DSL and index/alias APIs that OpenSearch 2.x/3.x
 * and Elasticsearch 8/9 share; the client does no product check, so it talks to both.
 *
 * With several nodes a request that finds its node refusing, or answering 502/503/504, goes to
 * the next one (one retry per other node), so one node down costs no answer. A dead node is
 * pinged again after DEAD_NODE_RETRY_MS; with every node dead the client still tries them (the
 * caller gets the connection error, which the services answer as 503).
 */
export function createOpenSearchClient(options: OpenSearchOptions): Client {
  const nodes = openSearchNodes(options.url);
  const client = new Client({
    nodes,
    requestTimeout: options.timeoutMs,
    maxRetries: Math.max(1, nodes.length),
    pingTimeout: Math.min(1000, options.timeoutMs),
    resurrectStrategy: 'ping',
  });
  const pool = client.connectionPool as unknown as { resurrectTimeout: number; resurrectTimeoutCutoff: number };
  pool.resurrectTimeout = DEAD_NODE_RETRY_MS;
  pool.resurrectTimeoutCutoff = Math.log2(DEAD_NODE_RETRY_MAX_MS / DEAD_NODE_RETRY_MS);
  client.on('response', (err) => nameUnavailableShards(err));
  return client;
}

/**
 * Whether the engine answered that no shard of the index could run the search: 503
 * `search_phase_execution_exception` "all shards failed" with no failure of its own (the engine
 * lists none for a shard that is not there: not started yet, recovering, or its index deleted by
 * a version switch while the search was on its way). Such a search may succeed when asked again.
 */
export function noShardAvailable(err: unknown): boolean {
  const e = err as { meta?: { statusCode?: number; body?: { error?: { type?: unknown; root_cause?: unknown[] } } } };
  const error = e?.meta?.body?.error;
  return e?.meta?.statusCode === 503 && error?.type === 'search_phase_execution_exception' && !(error.root_cause ?? []).length;
}

/**
 * The client's message for that answer ends at the colon (`search_phase_execution_exception: `,
 * the list of causes being empty): it is given what the engine meant and the request's path.
 */
function nameUnavailableShards(err: unknown): void {
  if (!(err instanceof Error) || !noShardAvailable(err)) return;
  const path = (err as { meta?: { meta?: { request?: { params?: { path?: string } } } } }).meta?.meta?.request?.params?.path;
  err.message = `search_phase_execution_exception: all shards failed: no shard of the index was available (not started, recovering, or deleted)${path ? ` for ${path}` : ''}`;
}

/** Index settings: a replica per shard once there are two data nodes, none on one node. */
export const REPLICAS = '0-1';
/** While an index is built: no replicas (turned on with REPLICAS when it is sealed). */
export const NO_REPLICAS = { auto_expand_replicas: false, number_of_replicas: 0 } as const;

/**
 * Waits (bounded) until the index's replicas are allocated, so a version goes live with its
 * copies on two nodes. On a single node that is at once; a timeout is not an error (the copies
 * keep recovering in the background).
 */
export async function awaitReplicas(client: Client, index: string, timeoutS = 60): Promise<void> {
  await client.cluster.health({ index, wait_for_status: 'green', timeout: `${timeoutS}s` } as never).catch(() => undefined);
}

export type { Client as OpenSearchClient } from '@opensearch-project/opensearch';

/** The HTTP status of an error the OpenSearch client threw for an answer (404, 403, ...); undefined for one without an answer. */
export function openSearchStatus(err: unknown): number | undefined {
  return (err as { meta?: { statusCode?: number } }).meta?.statusCode;
}

/** The pauses before asking again a search no shard could answer (noShardAvailable): about 1.5 s in all. */
export const NO_SHARD_RETRY_MS: readonly number[] = [100, 400, 1000];

/**
 * `read()`, asked again after each of `pausesMs` while no shard could answer it (noShardAvailable):
 * a shard that is starting or recovering, or a search that reached an index a version switch had
 * just deleted (asked again, the alias names the new one). Any other error is thrown at once.
 */
export async function retryWhileNoShard<T>(read: () => Promise<T>, pausesMs: readonly number[] = NO_SHARD_RETRY_MS): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await read();
    } catch (err) {
      if (i >= pausesMs.length || !noShardAvailable(err)) throw err;
      await new Promise((r) => setTimeout(r, pausesMs[i]));
    }
  }
}
