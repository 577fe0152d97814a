import { connect, Socket } from 'node:net';

/** An answer read off a raw socket: what clients that do not go through fetch see. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function parseRawAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = end < 0 ? '' : text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body };
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const nl = rest.indexOf('\r\n');
    if (nl < 0) return out;
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}

/**
 * Sends bytes exactly as given (bad percent-encodings, short bodies, invalid UTF-8 that fetch
 * would refuse or repair), half-closes, and reads until the server closes or `timeoutMs`.
 */
export function rawRequest(port: number, bytes: string | Buffer, opts: { timeoutMs?: number; halfClose?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${opts.timeoutMs ?? 5000} ms`));
    }, opts.timeoutMs ?? 5000);
    socket.on('connect', () => {
      socket.write(bytes);
      if (opts.halfClose ?? true) socket.end();
    });
    socket.on('data', (c) => {
      chunks.push(c);
      // One answer is all we ask for: stop at the end of a Content-Length body.
      const a = parseRawAnswer(Buffer.concat(chunks).toString('utf8'));
      const len = Number(a.headers['content-length']);
      if (a.status && Number.isFinite(len) && Buffer.byteLength(a.body) >= len) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseRawAnswer(Buffer.concat(chunks).toString('utf8')));
    });
  });
}
