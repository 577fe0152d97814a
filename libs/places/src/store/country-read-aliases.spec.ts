import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createOpenSearchClient } from '@lookup/shared/search';
import { CountryReadAliases } from './country-read-aliases';

/**
 * The country aliases when the cluster will not list them: a loopback HTTP server answering
 * `GET /_cat/aliases/...` as a cluster with the security plugin answers a user without the
 * privilege (403), or failing (500), read through the real OpenSearch client.
 */
describe('CountryReadAliases when the aliases cannot be read', () => {
  let server: Server;
  let status = 403;
  const asked: string[] = [];
  let url = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      if (status === 200) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify([{ alias: 'p-places-cz', index: 'p-places-cz-1' }, { alias: 'p-places-czx', index: 'x' }]));
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: status === 403 ? 'security_exception' : 'exception', reason: 'no' }, status }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (asked.length = 0));

  it('reads the aliases of the prefix and keeps only country aliases', async () => {
    status = 200;
    const reads = new CountryReadAliases(createOpenSearchClient({ url, timeoutMs: 2000 }), 'p-places', 1000, () => 0);
    await reads.refresh();
    expect(asked).toEqual([expect.stringMatching(/^GET \/_cat\/aliases\/p-places-\*\?format=json$/)]);
    expect(reads.target(['CZ'])).toBe('p-places-cz');
    expect(reads.target(['SK'])).toBe('p-places');
  });

  it('after a refusal (403) reads the read alias for every search and never asks again', async () => {
    status = 403;
    let clock = 0;
    const reads = new CountryReadAliases(createOpenSearchClient({ url, timeoutMs: 2000 }), 'p-places', 1000, () => clock);
    await expect(reads.refresh()).resolves.toBeUndefined();
    clock = 5000;
    expect(reads.target(['CZ'])).toBe('p-places');
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toHaveLength(1);
  });

  it('after another failure keeps what it knew and asks again at the next interval', async () => {
    let clock = 0;
    status = 200;
    const reads = new CountryReadAliases(createOpenSearchClient({ url, timeoutMs: 2000 }), 'p-places', 1000, () => clock);
    await reads.refresh();
    status = 500;
    clock = 1000;
    expect(reads.target(['CZ'])).toBe('p-places-cz'); // starts a read, which fails
    for (let i = 0; i < 40 && asked.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toHaveLength(2);
    expect(reads.target(['CZ'])).toBe('p-places-cz'); // within the interval: no new read
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toHaveLength(2);
    clock = 2000;
    reads.target(['CZ']);
    for (let i = 0; i < 40 && asked.length < 3; i++) await new Promise((r) => setTimeout(r, 25));
    expect(asked).toHaveLength(3);
  });
});
