import { createHash } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** How the loopback server answers one path. */
export type Behaviour =
  /** `validators: false`: a host that sends neither ETag nor Last-Modified (always 200). */
  | { kind: 'file'; body: Buffer; lastModified?: string; validators?: false }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  /** Headers and part of the body, then silence. */
  | { kind: 'stall'; body: Buffer; after: number }
  /** Content-Length of the whole body, then the connection is cut after `after` bytes. */
  | { kind: 'truncate'; body: Buffer; after: number }
  | { kind: 'redirect'; to: string };

export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
}

/**
 * A small HTTP server on loopback speaking what official dataset hosts speak: ETag and
 * Last-Modified, 304 on a matching If-None-Match / If-Modified-Since, plus the failure modes a
 * download must survive. Tests only.
 */
export class DatasetTestServer {
  readonly paths = new Map<string, Behaviour>();
  readonly requests: { path: string; headers: IncomingMessage['headers'] }[] = [];
  private readonly server = http.createServer((req, res) => this.answer(req, res));
  private readonly sockets = new Set<Socket>();

  async start(): Promise<string> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this.url('');
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    this.requests.push({ path, headers: req.headers });
    const b = this.paths.get(path);
    if (!b) return void res.writeHead(404).end('not found');
    switch (b.kind) {
      case 'status':
        return void res.writeHead(b.status).end('failure');
      case 'hang':
        return;
      case 'redirect':
        return void res.writeHead(302, { location: b.to }).end();
      case 'stall':
        res.writeHead(200, { 'content-length': b.body.length });
        return void res.write(b.body.subarray(0, b.after));
      case 'truncate':
        res.writeHead(200, { 'content-length': b.body.length });
        res.write(b.body.subarray(0, b.after), () => res.socket?.destroy());
        return;
      case 'file': {
        if (b.validators === false) return void res.writeHead(200, { 'content-length': b.body.length }).end(b.body);
        const etag = etagOf(b.body);
        const lastModified = b.lastModified ?? 'Sun, 01 Nov 2026 00:00:00 GMT';
        const inm = req.headers['if-none-match'];
        const ims = req.headers['if-modified-since'];
        const fresh = inm !== undefined ? inm === etag : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified);
        if (fresh) return void res.writeHead(304, { etag, 'last-modified': lastModified }).end();
        return void res.writeHead(200, { etag, 'last-modified': lastModified, 'content-length': b.body.length }).end(b.body);
      }
    }
  }
}
