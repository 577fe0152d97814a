import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './tmp';

/**
 * A throw-away self-signed certificate for `hostname`, made by `openssl` at test time: no private
 * key is ever committed. Valid for one day; browsers accept it only with --ignore-certificate-errors.
 */
export function selfSignedCertificate(hostname: string): { key: Buffer; cert: Buffer } {
  const dir = tempDir('lookup-tls-');
  try {
    const key = join(dir.path, 'key.pem');
    const cert = join(dir.path, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${hostname}`, '-addext', `subjectAltName=DNS:${hostname}`, '-keyout', key, '-out', cert],
      { stdio: 'pipe', timeout: 30_000 },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    dir.remove();
  }
}

export interface ProxiedRequest {
  method: string;
  path: string;
  origin: string | undefined;
  body: string;
}

export interface TlsProxy {
  port: number;
  /** Requests seen, in order, as the browser sent them (the widget's calls, for assertions); `body` once received whole. */
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * TLS terminating reverse proxy on `host:port` in front of a plain-HTTP server, as an operator
 * would put nginx in front of the gateway: clients that only speak `https://<host>:443` (the
 * browser widget) reach a local gateway. Passes everything through, adds X-Forwarded-For/-Proto.
 * Fails with a clear message when the port is taken (another run holds 443).
 */
export async function startTlsProxy(opts: { hostname: string; port: number; target: string; host?: string; timeoutMs?: number }): Promise<TlsProxy> {
  const target = new URL(opts.target);
  const seen: TlsProxy['seen'] = [];
  const server: Server = createServer(selfSignedCertificate(opts.hostname), (req, res) => {
    const entry: ProxiedRequest = { method: req.method ?? '', path: req.url ?? '', origin: req.headers.origin, body: '' };
    seen.push(entry);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => (entry.body = Buffer.concat(chunks).toString('utf8')));
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'x-forwarded-proto': 'https' },
        timeout: opts.timeoutMs ?? 15_000,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is in use (another run of this test, or a web server?)' : err.code === 'EACCES' ? 'needs root or CAP_NET_BIND_SERVICE' : err.message;
      reject(new Error(`TLS proxy cannot listen on ${opts.host ?? '127.0.0.1'}:${opts.port}: ${why}`));
    });
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A machine-wide lock for a fixed port (the widget's 443): parallel runs of the same test wait
 * their turn instead of failing on EADDRINUSE. A lock whose owner process is gone is taken over.
 */
export async function acquirePortLock(port: number, waitMs = 180_000): Promise<() => void> {
  const path = join(tmpdir(), `lookup-port-${port}.lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!ownerAlive(path)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`port ${port} is locked by process ${readFileSync(path, 'utf8')} (${path}) for over ${waitMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function ownerAlive(lockPath: string): boolean {
  let text = '';
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return false;
  }
  // Created but not yet written: its owner is between two calls, unless that was long ago.
  if (text === '') {
    const st = statSync(lockPath, { throwIfNoEntry: false });
    return st !== undefined && Date.now() - st.mtimeMs < 10_000;
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
