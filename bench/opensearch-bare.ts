/**
 * Bare `node:http` requests to OpenSearch, the floor the OpenSearch benches compare clients and
 * engines with: one kept-alive connection, the whole answer read and parsed as plain JSON.
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export const OPENSEARCH_URL = new URL(process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** `POST path` with `body` (JSON text), or `GET path` when `body` is null: its round trip in ms. An error answer fails. */
export function bareRequest(path: string, body: string | null): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const headers = body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ host: OPENSEARCH_URL.hostname, port: OPENSEARCH_URL.port, path, method: body === null ? 'GET' : 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: unknown };
        if (answer.error) return fail(new Error(JSON.stringify(answer.error)));
        done(performance.now() - t0);
      });
    });
    req.on('error', fail);
    req.end(body ?? undefined);
  });
}

/** Closes the kept-alive connection (at the end of a bench). */
export function closeBareRequests(): void {
  agent.destroy();
}
