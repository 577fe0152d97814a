import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tempDir } from '@lookup/shared/testing';
import { DatasetTestServer, etagOf } from './dataset-server.testing';
import { DownloadError, fetchDataset } from './fetch-dataset';

const body = Buffer.from('Kód ADM;Kód obce;Název obce\n1;2;Obec\n'.repeat(2000));
const sha = createHash('sha256').update(body).digest('hex');

describe('fetchDataset against a loopback HTTP server', () => {
  const server = new DatasetTestServer();
  const dir = tempDir();
  beforeAll(async () => {
    await server.start();
    server.paths.set('/data/adr.zip', { kind: 'file', body });
    server.paths.set('/moved', { kind: 'redirect', to: '/data/adr.zip' });
    server.paths.set('/broken', { kind: 'status', status: 500 });
    server.paths.set('/hang', { kind: 'hang' });
    server.paths.set('/stall', { kind: 'stall', body, after: 1000 });
    server.paths.set('/truncated.zip', { kind: 'truncate', body, after: 5000 });
  });
  afterAll(async () => {
    await server.stop();
    dir.remove();
  });

  /** Nothing but complete files under the folder: no `.part` left behind by a failure. */
  const files = () => readdirSync(dir.path).sort();

  it('downloads a 200 whole, with its hash and validators, under the URL name', async () => {
    const r = await fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, checksum: `sha256:${sha}` });
    expect(r).toMatchObject({ sha256: sha, bytes: body.length, etag: etagOf(body), lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT', notModified: false });
    expect(readFileSync(r.path!)).toEqual(body);
    expect(files()).toEqual(['adr.zip']);
  });

  it('sends the validators it has and reports 304 without touching the file', async () => {
    const byEtag = await fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, etag: etagOf(body) });
    expect(byEtag).toEqual({ path: null, sha256: null, bytes: 0, etag: etagOf(body), lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT', notModified: true });
    expect(server.requests.at(-1)!.headers['if-none-match']).toBe(etagOf(body));
    const byDate = await fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, lastModified: 'Mon, 02 Nov 2026 00:00:00 GMT' });
    expect(byDate.notModified).toBe(true);
    expect(server.requests.at(-1)!.headers['if-modified-since']).toBe('Mon, 02 Nov 2026 00:00:00 GMT');
    const stale = await fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, etag: '"old"' });
    expect(stale.notModified).toBe(false);
  });

  it('follows a redirect', async () => {
    const r = await fetchDataset(server.url('/moved'), { dir: dir.path, timeoutMs: 2000, fileName: 'moved.zip' });
    expect(r.sha256).toBe(sha);
  });

  it('fails 404 as permanent and 500 as retryable', async () => {
    await expect(fetchDataset(server.url('/nothing.zip'), { dir: dir.path, timeoutMs: 2000 })).rejects.toMatchObject({ status: 404, permanent: true });
    await expect(fetchDataset(server.url('/broken'), { dir: dir.path, timeoutMs: 2000 })).rejects.toMatchObject({ status: 500, permanent: false, message: expect.stringContaining('HTTP 500') });
  });

  it('times out on a server that never answers, and on one that stalls mid-body', async () => {
    const t0 = Date.now();
    await expect(fetchDataset(server.url('/hang'), { dir: dir.path, timeoutMs: 300 })).rejects.toThrow(/no data for 300 ms \(timeout\)/);
    await expect(fetchDataset(server.url('/stall'), { dir: dir.path, timeoutMs: 300 })).rejects.toThrow(/no data for 300 ms \(timeout\)/);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(files()).toEqual(['adr.zip', 'moved.zip']);
  });

  it('refuses a truncated body and leaves no file', async () => {
    const err = await fetchDataset(server.url('/truncated.zip'), { dir: dir.path, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as Error).message).toMatch(/truncated body/);
    expect(files()).not.toContain('truncated.zip');
  });

  it('refuses a checksum mismatch and an oversize body, leaving no file', async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    await expect(fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, checksum: wrong, fileName: 'bad.zip' })).rejects.toMatchObject({
      permanent: true,
      message: expect.stringContaining(`checksum mismatch: expected ${wrong}, got sha256:${sha}`),
    });
    await expect(fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 2000, maxBytes: 100, fileName: 'big.zip' })).rejects.toThrow(/over the limit of 100/);
    expect(files()).toEqual(['adr.zip', 'moved.zip']);
  });

  it('names the bad parameter for a non-http URL or a malformed checksum', async () => {
    await expect(fetchDataset('ftp://127.0.0.1/x', { dir: dir.path, timeoutMs: 100 })).rejects.toThrow(/^url: only http\(s\)/);
    await expect(fetchDataset(server.url('/data/adr.zip'), { dir: dir.path, timeoutMs: 100, checksum: 'md5:abc' })).rejects.toThrow(/^checksum must be sha256/);
  });
});
