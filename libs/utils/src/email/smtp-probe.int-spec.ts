import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { SmtpProber } from './smtp-probe';
import { parseCidrs } from './smtp-target-policy';

/**
 * The dialogue against scripted servers on loopback: the awkward behaviours a library server
 * does not show (no ESMTP, replies split into single bytes, a refusing greeting, broken TLS).
 */
interface ScriptedConn {
  /** Which connection this is, from 0. */
  index: number;
  say(text: string): void;
  socket: Socket;
  /** When set, incoming bytes go here instead of the line parser (a TLS handshake). */
  onRaw?: (chunk: Buffer) => void;
}
type Script = (verb: string, line: string, conn: ScriptedConn) => void;

async function scriptedServer(opts: { greeting: string; byteByByte?: boolean }, script: Script) {
  const seen: string[][] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const lines: string[] = [];
    seen.push(lines);
    const conn: ScriptedConn = {
      index: seen.length - 1,
      socket,
      say: (text) => {
        if (!socket.writable) return;
        if (opts.byteByByte) for (const ch of Buffer.from(text)) socket.write(Buffer.from([ch]));
        else socket.write(text);
      },
    };
    conn.say(opts.greeting);
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      if (conn.onRaw) return conn.onRaw(chunk);
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        lines.push(line);
        script(line.split(/[ :]/)[0].toUpperCase(), line, conn);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A well-behaved mailbox server for the parts of a script that do not matter. */
function ordinary(verb: string, line: string, conn: ScriptedConn): void {
  if (verb === 'EHLO') conn.say('250-mx.example.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n');
  else if (verb === 'HELO') conn.say('250 mx.example.test\r\n');
  else if (verb === 'MAIL') conn.say('250 2.1.0 Ok\r\n');
  else if (verb === 'RCPT') conn.say(line.includes('<alice@') ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
  else if (verb === 'QUIT') conn.say('221 2.0.0 Bye\r\n');
  else conn.say('502 5.5.2 Command not recognized\r\n');
}

const request = { hosts: ['mx.example.test'], resolve: async () => ['127.0.0.1'], localPart: 'alice', asciiDomain: 'example.test', needsSmtpUtf8: false };
const prober = (port: number, timeoutMs = 3000) => new SmtpProber({ port, timeoutMs, heloName: 'probe.example.org', mailFrom: 'check@probe.example.org', allowed: parseCidrs(['127.0.0.0/8', '::1']) });

describe('SmtpProber against scripted servers', () => {
  it('falls back to HELO when EHLO is unknown, with every reply arriving one byte at a time', async () => {
    const srv = await scriptedServer({ greeting: '220-mx.example.test\r\n220 old-style ESMTP\r\n', byteByByte: true }, (verb, line, conn) =>
      verb === 'EHLO' ? conn.say('500 5.5.1 Command unrecognized\r\n') : ordinary(verb, line, conn),
    );
    try {
      const outcome = await prober(srv.port).probe(request);
      expect(outcome).toMatchObject({ kind: 'answered', rcpt: 'accepted', catchAll: false, tls: false });
      expect(srv.seen[0].slice(0, 4)).toEqual(['EHLO probe.example.org', 'HELO probe.example.org', 'MAIL FROM:<check@probe.example.org>', 'RCPT TO:<alice@example.test>']);
      expect(srv.seen[0][4]).toMatch(/^RCPT TO:<z[0-9a-f]{20}@example\.test>$/);
      expect(srv.seen[0][5]).toBe('QUIT');
      // Never a message: no DATA, no body.
      expect(srv.seen.flat().some((l) => /^DATA/i.test(l))).toBe(false);
    } finally {
      await srv.close();
    }
  });

  it('a greeting that refuses us, or a refused sender, is inconclusive', async () => {
    const refusing = await scriptedServer({ greeting: '554 5.7.1 No SMTP service for you\r\n' }, ordinary);
    const noSender = await scriptedServer({ greeting: '220 mx ESMTP\r\n' }, (verb, line, conn) =>
      verb === 'MAIL' ? conn.say('553 5.1.8 <check@probe.example.org>: Sender address rejected: Domain not found\r\n') : ordinary(verb, line, conn),
    );
    try {
      expect(await prober(refusing.port).probe(request)).toMatchObject({ kind: 'inconclusive', detail: expect.stringContaining('554') });
      expect(await prober(noSender.port).probe(request)).toMatchObject({ kind: 'inconclusive', detail: expect.stringContaining('refused the sender') });
    } finally {
      await Promise.all([refusing.close(), noSender.close()]);
    }
  });

  it('a server that drops the line after RCPT, or goes silent mid-dialogue, is inconclusive within the step timeout', async () => {
    const dropping = await scriptedServer({ greeting: '220 mx ESMTP\r\n' }, (verb, line, conn) => (verb === 'RCPT' ? conn.socket.destroy() : ordinary(verb, line, conn)));
    const stalling = await scriptedServer({ greeting: '220 mx ESMTP\r\n' }, (verb, line, conn) => (verb === 'MAIL' ? undefined : ordinary(verb, line, conn)));
    try {
      expect(await prober(dropping.port).probe(request)).toMatchObject({ kind: 'inconclusive' });
      const t0 = Date.now();
      expect(await prober(stalling.port, 500).probe(request)).toMatchObject({ kind: 'inconclusive', detail: expect.stringContaining('MAIL') });
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      await Promise.all([dropping.close(), stalling.close()]);
    }
  });

  it('a broken STARTTLS is given up for a plain-text dialogue on a new connection', async () => {
    const srv = await scriptedServer({ greeting: '220 mx ESMTP\r\n' }, (verb, line, conn) => {
      if (verb === 'EHLO') return conn.say('250-mx.example.test\r\n250 STARTTLS\r\n');
      // Agrees to TLS, then answers the ClientHello with text: the handshake fails.
      if (verb === 'STARTTLS') {
        conn.onRaw = () => conn.say('454 4.7.0 TLS not available after all\r\n');
        return conn.say('220 2.0.0 Ready to start TLS\r\n');
      }
      return ordinary(verb, line, conn);
    });
    srv.seen.length = 0;
    try {
      const t0 = Date.now();
      const outcome = await prober(srv.port).probe(request);
      expect(outcome).toMatchObject({ kind: 'answered', rcpt: 'accepted', tls: false });
      // A handshake error, not a timeout, ended the first try.
      expect(Date.now() - t0).toBeLessThan(2500);
      expect(srv.seen.length).toBe(2);
      expect(srv.seen[0]).toContain('STARTTLS');
      expect(srv.seen[1]).not.toContain('STARTTLS');
    } finally {
      await srv.close();
    }
  });

  it('moves to the next exchanger only when the better one cannot be reached', async () => {
    const srv = await scriptedServer({ greeting: '220 mx ESMTP\r\n' }, ordinary);
    try {
      const resolve = async (host: string) => (host === 'down.example.test' ? ['127.0.0.2'] : ['127.0.0.1']);
      const outcome = await prober(srv.port).probe({ ...request, hosts: ['down.example.test', 'up.example.test'], resolve });
      expect(outcome).toMatchObject({ kind: 'answered', host: 'up.example.test', rcpt: 'accepted' });
      const none = await prober(srv.port).probe({ ...request, hosts: ['down.example.test'], resolve });
      expect(none).toMatchObject({ kind: 'no-server' });
    } finally {
      await srv.close();
    }
  });
});
