import { createServer, Server, Socket } from 'node:net';
import { EmailCheckService } from './email-check.service';
import { EmailLists } from './email-lists';
import { EmailOptions } from './email.options';
import { LoopbackDnsServer } from './loopback-dns.testing';
import { LoopbackSmtpServer } from './loopback-smtp.testing';
import { NodeMailDns } from './node-mail-dns.adapter';
import { SmtpProber } from './smtp-probe';
import { SmtpConnection } from './smtp.connection';
import { parseCidrs } from './smtp-target-policy';

/**
 * The e-mail check must not be a port-25 scanner of our own networks (issue 16): mail servers
 * at loopback, private, link-local, CGNAT or IPv6 ULA/link-local addresses, and IP-literal MX
 * records, get no connection unless the operator allows them; a name with public and private
 * addresses is probed on the public ones only. Real DNS and SMTP servers on loopback.
 */
const ZONE = {
  'loop.test': { mx: [{ exchange: 'mx.loop.test', priority: 10 }] },
  'mx.loop.test': { a: ['127.0.0.1'] },
  'implicit.test': { a: ['127.0.0.1'] }, // no MX: the domain's own (loopback) address
  'private.test': { mx: [{ exchange: 'mx.private.test', priority: 10 }] },
  'mx.private.test': { a: ['10.0.0.25'] },
  'metadata.test': { mx: [{ exchange: 'mx.metadata.test', priority: 10 }] },
  'mx.metadata.test': { a: ['169.254.169.254'] },
  'cgnat.test': { mx: [{ exchange: 'mx.cgnat.test', priority: 10 }] },
  'mx.cgnat.test': { a: ['100.64.1.1'] },
  'ula.test': { mx: [{ exchange: 'mx.ula.test', priority: 10 }] },
  'mx.ula.test': { aaaa: ['fd00::25'] },
  'linklocal6.test': { mx: [{ exchange: 'mx.linklocal6.test', priority: 10 }] },
  'mx.linklocal6.test': { aaaa: ['fe80::25'] },
  'literal.test': { mx: [{ exchange: '127.0.0.1', priority: 10 }] },
  // "Public" here is 127.0.0.1 made allowed; 127.0.0.2 stays a loopback address nobody allowed.
  'mixed.test': { mx: [{ exchange: 'mx.mixed.test', priority: 10 }] },
  'mx.mixed.test': { a: ['127.0.0.2', '127.0.0.1'] },
};

function service(port: number, dnsServer: string, allowed: string[]): EmailCheckService {
  const options: EmailOptions = {
    smtpProbe: true,
    smtp: { port, timeoutMs: 3000, heloName: 'probe.example.org', mailFrom: 'check@probe.example.org', allowed: parseCidrs(allowed) },
    dnsServers: [dnsServer],
    dnsTimeoutMs: 2000,
    budgetMs: 8000,
    cacheTtlMs: 0,
    cacheMaxEntries: 10,
  };
  return new EmailCheckService(options, new NodeMailDns({ servers: options.dnsServers, timeoutMs: options.dnsTimeoutMs }), new SmtpProber(options.smtp), new EmailLists());
}

describe('e-mail check SSRF guard (loopback DNS and SMTP)', () => {
  const dns = new LoopbackDnsServer(ZONE);
  const smtp = new LoopbackSmtpServer({ mailboxes: { '*@loop.test': 'accept', '*@mixed.test': 'accept', '*@implicit.test': 'accept', '*@literal.test': 'accept' } });
  let dnsServer: string;
  let port: number;
  // A listener on 127.0.0.2 (same port) that only counts connections: the private twin must see none.
  let twin: Server;
  const twinSockets: Socket[] = [];

  beforeAll(async () => {
    dnsServer = await dns.start();
    port = await smtp.start();
    twin = createServer((s) => twinSockets.push(s));
    await new Promise<void>((resolve) => twin.listen(port, '127.0.0.2', resolve));
  });
  afterAll(async () => {
    twinSockets.forEach((s) => s.destroy());
    await new Promise((r) => twin.close(r));
    await Promise.all([dns.stop(), smtp.stop()]);
  });
  afterEach(() => jest.restoreAllMocks());

  it.each(['x@loop.test', 'x@implicit.test', 'x@private.test', 'x@metadata.test', 'x@cgnat.test', 'x@ula.test', 'x@linklocal6.test', 'x@literal.test'])(
    '%s: no connection at all, verdict unknown',
    async (email) => {
      const open = jest.spyOn(SmtpConnection, 'open');
      const before = smtp.sessions.length;
      expect(await service(port, dnsServer, []).check(email)).toMatchObject({ reachable: 'unknown', mxValid: true, connection: false, deliverable: false });
      expect(open).not.toHaveBeenCalled();
      expect(smtp.sessions.length).toBe(before);
    },
  );

  it('says why it did not probe', async () => {
    const prober = new SmtpProber({ port, timeoutMs: 1000, heloName: 'h', mailFrom: 'f@h' });
    const resolve = async (h: string) => (h === 'mx.ula.test' ? ['fd00::25'] : ['127.0.0.1']);
    const req = { localPart: 'x', asciiDomain: 'd.test', needsSmtpUtf8: false, resolve };
    expect(await prober.probe({ ...req, hosts: ['mx.ula.test'] })).toEqual({ kind: 'not-probed', detail: expect.stringContaining('fd00::25 is not a public address') });
    expect(await prober.probe({ ...req, hosts: ['127.0.0.1'] })).toEqual({ kind: 'not-probed', detail: expect.stringContaining('IP literal') });
  });

  it('an allow-listed block is probed (tests, private deployments); an IP-literal MX still is not', async () => {
    const allowed = service(port, dnsServer, ['127.0.0.0/8']);
    expect(await allowed.check('x@loop.test')).toMatchObject({ reachable: 'risky', connection: true, catchAll: true });
    expect(await allowed.check('x@literal.test')).toMatchObject({ reachable: 'unknown', connection: false });
  });

  it('a name with an allowed and a non-public address is probed on the allowed one only', async () => {
    const open = jest.spyOn(SmtpConnection, 'open');
    const r = await service(port, dnsServer, ['127.0.0.1/32']).check('x@mixed.test');
    expect(r).toMatchObject({ connection: true, deliverable: true });
    expect(open.mock.calls.map((c) => c[0])).toEqual(['127.0.0.1']);
    expect(twinSockets).toHaveLength(0);
  });
});
