import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface FetchOptions {
  /** Folder the file lands in (created if absent). */
  dir: string;
  /** Connect, response headers and every pause in the body: no byte for this long aborts the download. */
  timeoutMs: number;
  /** The whole download, headers to last byte; default: no limit beyond the idle timeout. */
  deadlineMs?: number;
  /** Larger bodies are refused (by Content-Length up front, or while streaming); default 16 GiB. */
  maxBytes?: number;
  /** `sha256:<hex>` or `<hex>`: the file is kept only if it matches. */
  checksum?: string;
  /** Validators of the copy we already have: a 304 answer means it is still current. */
  etag?: string | null;
  lastModified?: string | null;
  /** Final file name; default: the URL's last path segment. */
  fileName?: string;
  maxRedirects?: number;
  onProgress?: (bytes: number, totalBytes: number | undefined) => void;
}

export interface FetchResult {
  /** The complete file, or null when the server answered 304. */
  path: string | null;
  /** Hex sha256 of the file (null on 304). */
  sha256: string | null;
  bytes: number;
  etag: string | null;
  lastModified: string | null;
  notModified: boolean;
}

/**
 * A download that failed. `permanent` tells a retry from a lost cause: a 404, a checksum
 * mismatch or an oversize file will not get better by asking again; a 5xx, a timeout or a
 * connection cut may.
 */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

const DEFAULT_MAX_BYTES = 16 * 1024 ** 3;

export function normaliseChecksum(c: string): string {
  const hex = c.trim().toLowerCase().replace(/^sha256:/, '');
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new DownloadError(`checksum must be sha256:<64 hex digits>, got ${c}`, true);
  return hex;
}

/** Conditional request headers for the copy we have. */
export function conditionalHeaders(o: Pick<FetchOptions, 'etag' | 'lastModified'>): Record<string, string> {
  const h: Record<string, string> = {};
  if (o.etag) h['if-none-match'] = o.etag;
  if (o.lastModified) h['if-modified-since'] = o.lastModified;
  return h;
}

function fileNameOf(url: URL): string {
  const name = basename(decodeURIComponent(url.pathname)).replace(/[^A-Za-z0-9._-]+/g, '_');
  return name && name !== '.' && name !== '..' ? name : 'dataset';
}

/**
 * Streams an official dataset to `dir`: into a temp file first, renamed to the final name only
 * when complete and verified, so a reader never sees half a file under the real name.
 */
export async function fetchDataset(url: string, o: FetchOptions): Promise<FetchResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new DownloadError(`url: not a URL: ${url}`, true);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new DownloadError(`url: only http(s) is supported, got ${target.protocol}`, true);
  const expected = o.checksum ? normaliseChecksum(o.checksum) : null;
  const deadline = o.deadlineMs ? Date.now() + o.deadlineMs : Infinity;
  for (let hop = 0; ; hop++) {
    const res = await request(target, conditionalHeaders(o), o.timeoutMs, deadline);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && status !== 304 && res.headers.location) {
      res.resume();
      if (hop >= (o.maxRedirects ?? 5)) throw new DownloadError(`${url}: too many redirects`, true, status);
      target = new URL(res.headers.location, target);
      continue;
    }
    const etag = header(res, 'etag');
    const lastModified = header(res, 'last-modified');
    if (status === 304) {
      res.resume();
      return { path: null, sha256: null, bytes: 0, etag: etag ?? o.etag ?? null, lastModified: lastModified ?? o.lastModified ?? null, notModified: true };
    }
    if (status !== 200) {
      res.resume();
      throw new DownloadError(`${target.href}: HTTP ${status} ${res.statusMessage ?? ''}`.trim(), status >= 400 && status < 500 && status !== 408 && status !== 429, status);
    }
    const { sha256, bytes, path } = await save(res, target, o, deadline);
    if (expected && sha256 !== expected) {
      await unlink(path).catch(() => undefined);
      throw new DownloadError(`${target.href}: checksum mismatch: expected sha256:${expected}, got sha256:${sha256}`, true);
    }
    return { path, sha256, bytes, etag, lastModified, notModified: false };
  }
}

function header(res: IncomingMessage, name: string): string | null {
  const v = res.headers[name];
  return typeof v === 'string' ? v : null;
}

/** One GET; resolves with the response once its headers arrived. */
function request(url: URL, headers: Record<string, string>, timeoutMs: number, deadline: number): Promise<IncomingMessage> {
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const req = get(url, { headers: { 'user-agent': 'lookup-indexer', ...headers }, timeout: timeoutMs, agent: false }, (res) => resolve((response = res)));
    // Destroying the response too makes a body reader fail with our reason, not a bare "aborted".
    const fail = (err: DownloadError) => {
      response?.destroy(err);
      req.destroy(err);
    };
    // The socket timeout covers connect, waiting for headers and every pause in the body.
    req.on('timeout', () => fail(new DownloadError(`${url.href}: no data for ${timeoutMs} ms (timeout)`, false)));
    req.on('error', (err) => reject(err instanceof DownloadError ? err : new DownloadError(`${url.href}: ${err.message}`, false)));
    if (deadline !== Infinity) {
      const t = setTimeout(() => fail(new DownloadError(`${url.href}: download deadline passed`, false)), Math.max(0, deadline - Date.now()));
      req.on('close', () => clearTimeout(t));
    }
  });
}

async function save(res: IncomingMessage, url: URL, o: FetchOptions, deadline: number): Promise<{ sha256: string; bytes: number; path: string }> {
  const max = o.maxBytes ?? DEFAULT_MAX_BYTES;
  const declared = res.headers['content-length'] !== undefined ? Number(res.headers['content-length']) : undefined;
  if (declared !== undefined && declared > max) {
    res.destroy();
    throw new DownloadError(`${url.href}: ${declared} bytes is over the limit of ${max}`, true);
  }
  await mkdir(o.dir, { recursive: true });
  const path = join(o.dir, o.fileName ?? fileNameOf(url));
  const part = `${path}.part-${randomBytes(4).toString('hex')}`;
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > max) return done(new DownloadError(`${url.href}: body is over the limit of ${max} bytes`, true));
      hash.update(chunk);
      o.onProgress?.(bytes, declared);
      done(null, chunk);
    },
  });
  try {
    if (deadline !== Infinity && Date.now() > deadline) throw new DownloadError(`${url.href}: download deadline passed`, false);
    // A server that stalls mid-body: the socket's idle timeout (set on the request) destroys it, and pipeline rejects.
    await pipeline(res, meter, createWriteStream(part));
    if (!res.complete || (declared !== undefined && bytes !== declared)) {
      throw new DownloadError(`${url.href}: truncated body: got ${bytes} of ${declared ?? 'unknown'} bytes`, false);
    }
    await rename(part, path);
  } catch (err) {
    await unlink(part).catch(() => undefined);
    if (err instanceof DownloadError) throw err;
    const m = (err as Error).message;
    throw new DownloadError(`${url.href}: ${m === 'aborted' ? `truncated body: connection closed after ${bytes} bytes` : m}`, false);
  }
  return { sha256: hash.digest('hex'), bytes, path };
}
