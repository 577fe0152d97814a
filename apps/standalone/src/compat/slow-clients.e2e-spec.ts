import { connect, Socket } from 'node:net';
import { parseRawAnswer } from '@lookup/shared/testing';
import { CompatApp, isCompatError, jsonOf, startCompatApp } from './compat-app.testing';

const KEY = 'slow-secret-key-0815';
const REQUEST_TIMEOUT_MS = 1500;
const CHECK_MS = 100;
const CAP = 4;

interface Cut {
  closedAfterMs: number;
  answer: string;
}

/** Opens a socket from `from`, runs `drip` on it, and reports when the server closed it. */
function slowClient(port: number, drip: (s: Socket) => void, from = '127.0.0.1'): Promise<Cut> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let answer = '';
    socket.on('connect', () => drip(socket));
    socket.on('data', (d) => (answer += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - started, answer }));
  });
}

function every(ms: number, s: Socket, chunk: string): void {
  const t = setInterval(() => (s.writable ? s.write(chunk) : clearInterval(t)), ms);
  s.on('close', () => clearInterval(t));
}

/** Issue 16: slow-loris clients are cut off within the configured time while others are served. */
describe('slow and greedy clients', () => {
  let s: CompatApp;
  beforeAll(async () => {
    s = await startCompatApp(KEY, {
      HTTP_REQUEST_TIMEOUT_MS: REQUEST_TIMEOUT_MS,
      HTTP_HEADERS_TIMEOUT_MS: 1000,
      HTTP_TIMEOUT_CHECK_MS: CHECK_MS,
      HTTP_MAX_CONNECTIONS_PER_IP: CAP,
    });
  });
  afterAll(() => s?.close());

  it('cuts off a slow body and a slow header while a normal client from another address is served', async () => {
    const slowBody = slowClient(s.port, (sock) => {
      sock.write(`POST /v1/places/regions HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n`);
      every(200, sock, 'a');
    });
    const slowHeader = slowClient(s.port, (sock) => {
      sock.write('POST /v1/places/regions HTTP/1.1\r\n');
      every(200, sock, 'X-a: b\r\n');
    });
    await new Promise((r) => setTimeout(r, 300));
    const normal = await fetch(`${s.base}/v1/places/regions`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-service-api-key': KEY }, body: 'country=CZ' });
    expect(normal.status).toBe(200);
    const [body, header] = await Promise.all([slowBody, slowHeader]);
    // Node checks its deadlines every CHECK_MS; allow that and scheduling slack, far below "never".
    for (const cut of [body, header]) {
      expect(cut.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 10 * CHECK_MS + 1000);
    }
    const answer = parseRawAnswer(body.answer);
    expect(answer.status).toBe(408);
    expect(isCompatError(jsonOf(answer.body))).toBe(true);
  });

  it('caps open connections per address; another address is still served', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < CAP; i++) {
      const sock = connect({ port: s.port, host: '127.0.0.1' });
      sock.on('error', () => undefined);
      await new Promise((r) => sock.once('connect', r));
      held.push(sock);
    }
    await new Promise((r) => setTimeout(r, 50));
    const refused = await slowClient(s.port, () => undefined);
    const a = parseRawAnswer(refused.answer);
    expect(a.status).toBe(400);
    expect((jsonOf(a.body) as { error: { type: string } }).error.type).toBe('rate_limit');
    const other = await slowClient(s.port, (sock) => sock.end(`POST /v1/places/regions HTTP/1.1\r\nHost: x\r\nX-Service-API-Key: ${KEY}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\nConnection: close\r\n\r\ncountry=CZ`), '127.0.0.2');
    expect(parseRawAnswer(other.answer).status).toBe(200);
    held.forEach((h) => h.destroy());
  });

  it('keys sent in the query string and both headers never reach a log line', async () => {
    await fetch(`${s.base}/v1/places/regions?country=CZ&api_key=${KEY}`, { method: 'POST' });
    await fetch(`${s.base}/v1/places/regions?country=CZ`, { method: 'POST', headers: { 'X-Swiftyper-Api-Key': KEY } });
    await fetch(`${s.base}/v1/places/nope?api_key=${KEY}&api_key[1]=${KEY}`, { method: 'POST' });
    expect(s.logs.some((l) => l.includes('/v1/places/regions'))).toBe(true);
    expect(s.logs.filter((l) => l.includes(KEY))).toEqual([]);
  });
});
