import { request } from 'node:http';
import { Writable } from 'node:stream';
import Fastify, { FastifyInstance } from 'fastify';
import { AccessLog, logUnanswered } from './access-log';
import { requestLogEntry } from './redact';

type Line = { level: number; msg: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number };

/** A Fastify server as the gateway logs it (AccessLog, logUnanswered, the request serializer), its log lines parsed. */
async function server(level: string): Promise<{ app: FastifyInstance; port: number; lines: Line[]; inside: Promise<void>; release: () => void }> {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) {
        const line = l ? (JSON.parse(l) as Line) : null;
        // The requests' lines only (not "Server listening").
        if (line?.reqId) lines.push(line);
      }
      cb();
    },
  });
  const app = Fastify({ logger: { level, stream, serializers: { req: requestLogEntry } }, logController: new AccessLog() });
  logUnanswered(app);
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  app.get('/ok', async () => ({ ok: true }));
  app.get('/hold', async () => {
    entered();
    await released;
    return { ok: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as { port: number }).port, lines, inside, release };
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Until `check` holds (the log is written as the response closes, after the client has its answer). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('AccessLog: one line per request', () => {
  it('logs an answered request once at info, with its method, URL (key redacted), status and time', async () => {
    const s = await server('info');
    try {
      expect(await get(s.port, '/ok?api_key=secret-key&x=1')).toBe(200);
      await until(() => s.lines.length > 0);
      await new Promise((r) => setTimeout(r, 50));
      expect(s.lines).toHaveLength(1);
      const [line] = s.lines;
      expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/ok?api_key=[redacted]&x=1' }, res: { statusCode: 200 } });
      expect(typeof line.reqId).toBe('string');
      expect(line.responseTime).toBeGreaterThanOrEqual(0);
    } finally {
      await s.app.close();
    }
  });

  it('keeps the incoming line at debug', async () => {
    const s = await server('debug');
    try {
      await get(s.port, '/ok');
      await until(() => s.lines.length > 1);
      expect(s.lines.map((l) => [l.level, l.msg])).toEqual([
        [20, 'incoming request'],
        [30, 'request completed'],
      ]);
      expect(s.lines[0].reqId).toBe(s.lines[1].reqId);
    } finally {
      await s.app.close();
    }
  });

  it('logs a request whose client left before its answer, once, and nothing when the answer comes later', async () => {
    const s = await server('info');
    try {
      const req = request({ host: '127.0.0.1', port: s.port, path: '/hold?api_key=secret-key' });
      req.on('error', () => undefined);
      req.end();
      await s.inside;
      req.destroy();
      await until(() => s.lines.length > 0);
      s.release();
      await new Promise((r) => setTimeout(r, 100));
      expect(s.lines).toHaveLength(1);
      expect(s.lines[0]).toMatchObject({ level: 30, msg: 'request closed before its answer', req: { method: 'GET', url: '/hold?api_key=[redacted]' } });
      expect(JSON.stringify(s.lines)).not.toContain('secret-key');
    } finally {
      await s.app.close();
    }
  });
});
