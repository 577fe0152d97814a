import type { IncomingMessage } from 'node:http';
import type { Client } from '@opensearch-project/opensearch';

/** What this file uses of the client's Transport, pool and Connection (public classes, untyped fields). */
interface ClientConnection {
  request(params: Record<string, unknown>, callback: (err: Error | null, response: IncomingMessage | null) => void): unknown;
}
interface ClientTransport {
  getConnection(opts: { requestId?: unknown }): ClientConnection | null;
  requestTimeout: number;
  maxRetries: number;
}
interface ClientPool {
  markAlive(c: ClientConnection): void;
  markDead(c: ClientConnection): void;
}

/** The direct attempt's outcome: an answer, or what the client's retry logic should make of it. */
type Attempt<T> = { body: T } | { failed: 'node' | 'answer' };

function attempt<T>(conn: ClientConnection, index: string, payload: string, timeout: number): Promise<Attempt<T>> {
  return new Promise((resolve) => {
    conn.request(
      {
        method: 'POST',
        path: `/${encodeURIComponent(index)}/_search`,
        body: payload,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
        timeout,
      },
      (err, res) => {
        if (err || !res) return resolve({ failed: 'node' });
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          res.resume();
          return resolve({ failed: status === 502 || status === 503 || status === 504 ? 'node' : 'answer' });
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => resolve({ failed: 'node' }));
        res.on('end', () => {
          try {
            resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
          } catch {
            resolve({ failed: 'answer' });
          }
        });
      },
    );
  });
}

/**
 * `POST <index>/_search` on the node the client's own pool picks (its node choice, dead-node
 * marks, agent, headers and timeout), the answer parsed as plain JSON: for the searches every
 * request makes. The client's Transport costs about 0.2-0.3 ms per search on top of the HTTP
 * round trip (request and response events and their metadata, a hardened JSON parser, retry
 * bookkeeping), a sixth of a small search (`bench/opensearch-client.ts`).
 *
 * Failures go the client's way: a node that refuses, times out or answers 502/503/504 is marked
 * dead as the client marks it, and the search goes to `client.search` with one retry fewer (the
 * same number of tries in all as before); any other answer that is not 2xx is asked again through
 * `client.search`, which throws its usual error for it.
 */
export async function searchDirect<T>(client: Client, index: string, body: unknown): Promise<T> {
  const transport = client.transport as unknown as ClientTransport;
  const pool = client.connectionPool as unknown as ClientPool;
  const conn = transport.getConnection({});
  let retries = transport.maxRetries;
  if (conn) {
    const first = await attempt<T>(conn, index, JSON.stringify(body), transport.requestTimeout);
    if ('body' in first) {
      pool.markAlive(conn);
      return first.body;
    }
    if (first.failed === 'node') {
      pool.markDead(conn);
      retries = Math.max(0, retries - 1);
    }
  }
  return (await client.search({ index, body: body as never }, { maxRetries: retries })).body as T;
}
