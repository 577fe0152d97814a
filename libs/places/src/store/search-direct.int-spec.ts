import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { createOpenSearchClient, OpenSearchClient, searchDirect } from '@lookup/shared/search';

type Hits = { hits: { hits: Array<{ _id: string; _source: { name: string } }> } };

/** A loopback HTTP server that counts requests and answers each as `answer` says (or never). */
async function fakeNode(answer: 'hang' | 503): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    if (answer === 503) res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable","status":503}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Statuses of the client's connections by URL ('alive' / 'dead'). */
function statuses(client: OpenSearchClient): Record<string, string> {
  const pool = client.connectionPool as unknown as { connections: Array<{ url: URL; status: string }> };
  return Object.fromEntries(pool.connections.map((c) => [c.url.origin, c.status]));
}

// searchDirect lives in @lookup/shared/search, which the testing library depends on: its test is here, beside the stores that use it.
describeWith(['opensearch'], 'searchDirect: a search through the client pool, failures the client way', () => {
  const real = serverUrl('opensearch');
  const index = uniqueName('direct');
  const client = createOpenSearchClient({ url: real, timeoutMs: 10000 });

  beforeAll(async () => {
    await client.indices.create({ index, body: { mappings: { properties: { name: { type: 'keyword' } } } } as never });
    const docs = ['Praha', 'Brno', 'Ostrava'].flatMap((name, i) => [{ index: { _index: index, _id: String(i) } }, { name }]);
    await client.bulk({ body: docs as never, refresh: true });
  });
  afterAll(async () => {
    await client.indices.delete({ index }).catch(() => undefined);
    await client.close();
  });

  it('answers what client.search answers', async () => {
    const body = { size: 10, query: { terms: { name: ['Brno', 'Praha'] } }, sort: [{ name: 'asc' }] };
    const direct = await searchDirect<Hits>(client, index, body);
    const viaClient = (await client.search({ index, body: body as never })).body as Hits;
    expect(direct.hits.hits.map((h) => [h._id, h._source.name])).toEqual([
      ['1', 'Brno'],
      ['0', 'Praha'],
    ]);
    expect(direct.hits).toEqual(viaClient.hits);
  });

  it('a successful search does not go through the client’s Transport; a failed one does', async () => {
    const sent: string[] = [];
    const count = (_err: unknown, meta: { meta?: { request?: { params?: { path?: string } } } }) => sent.push(meta?.meta?.request?.params?.path ?? '?');
    client.on('request', count);
    try {
      await searchDirect<Hits>(client, index, { query: { term: { name: 'Brno' } } });
      expect(sent).toEqual([]);
      await client.search({ index, body: { query: { term: { name: 'Brno' } } } as never });
      expect(sent).toHaveLength(1);
      await searchDirect(client, uniqueName('absent'), { query: { match_all: {} } }).catch(() => undefined);
      expect(sent).toHaveLength(2);
    } finally {
      client.off('request', count);
    }
  });

  it('throws the client’s own error for a 4xx answer (a missing index, a malformed query)', async () => {
    const missing = uniqueName('absent');
    const expected = await client.search({ index: missing, body: { query: { match_all: {} } } as never }).catch((e: Error) => e);
    const got = await searchDirect(client, missing, { query: { match_all: {} } }).catch((e: Error) => e);
    expect(got).toBeInstanceOf(Error);
    expect((got as Error).name).toBe('ResponseError');
    expect((got as Error).message).toBe((expected as Error).message);
    expect((got as { statusCode?: number }).statusCode).toBe(404);
    const bad = await searchDirect(client, index, { query: { no_such_query: {} } }).catch((e: Error) => e);
    expect((bad as { statusCode?: number }).statusCode).toBe(400);
  });

  it('a node that answers 503 is marked dead and the search goes to the next node', async () => {
    const sick = await fakeNode(503);
    const pair = createOpenSearchClient({ url: `${sick.url},${real}`, timeoutMs: 10000 });
    try {
      // Round robin: the sick node gets the first or the second search; both must answer.
      for (let i = 0; i < 2; i++) expect((await searchDirect<Hits>(pair, index, { query: { term: { name: 'Ostrava' } } })).hits.hits.map((h) => h._id)).toEqual(['2']);
      expect(sick.requests()).toBe(1);
      expect(statuses(pair)[sick.url]).toBe('dead');
      expect(statuses(pair)[new URL(real).origin]).toBe('alive');
    } finally {
      await pair.close();
      await sick.close();
    }
  });

  it('a node that does not answer: times out and tries as often as client.search does, then throws its TimeoutError', async () => {
    const hung = await fakeNode('hang');
    const alone = createOpenSearchClient({ url: hung.url, timeoutMs: 300 });
    try {
      const viaClient = await alone.search({ index, body: { query: { match_all: {} } } as never }).catch((e: Error) => e);
      const clientTries = hung.requests();
      const t0 = Date.now();
      const direct = await searchDirect(alone, index, { query: { match_all: {} } }).catch((e: Error) => e);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300 * clientTries - 50);
      expect((direct as Error).name).toBe('TimeoutError');
      expect((direct as Error).name).toBe((viaClient as Error).name);
      expect(clientTries).toBeGreaterThanOrEqual(2);
      expect(hung.requests() - clientTries).toBe(clientTries);
    } finally {
      await alone.close();
      await hung.close();
    }
  });
});
