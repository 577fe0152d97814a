import { createServer, Server, Socket } from 'node:net';
import { EmailCheckService } from './email-check.service';
import { EmailLists } from './email-lists';
import { EmailOptions } from './email.options';
import { LoopbackDnsServer, ZoneEntry } from './loopback-dns.testing';
import { LoopbackSmtpServer, MailboxBehaviour } from './loopback-smtp.testing';
import { NodeMailDns } from './node-mail-dns.adapter';
import { SmtpProber } from './smtp-probe';
import { parseCidrs } from './smtp-target-policy';

/**
 * The whole check against a real DNS server and real SMTP servers on loopback: every verdict
 * path the service has, with the reply wording real servers use.
 */
const MX = [{ exchange: 'mx.example.test', priority: 10 }];
const ZONE: Record<string, ZoneEntry> = {
  'example.test': { mx: MX },
  'mx.example.test': { a: ['127.0.0.1'] },
  'catchall.test': { mx: MX },
  'amx.test': { a: ['127.0.0.1'] }, // no MX: the A record is the implicit MX
  'nullmx.test': { mx: [{ exchange: '', priority: 0 }], a: ['127.0.0.1'] },
  'noaddr.test': {},
  'refused.test': { mx: [{ exchange: 'mx.refused.test', priority: 10 }] },
  'mx.refused.test': { a: ['127.0.0.2'] }, // nothing listens there: connection refused
  'backup.test': { mx: [{ exchange: 'mx.example.test', priority: 20 }, { exchange: 'mx.refused.test', priority: 5 }] },
  'silent.test': { mx: [{ exchange: 'mx.silent.test', priority: 10 }] },
  'mx.silent.test': { a: ['127.0.0.3'] }, // accepts TCP, never greets: a timeout
  'dnsdown.test': { silent: true },
  'servfail.test': { servfail: true },
  'xn--mnchen-3ya.test': { mx: MX }, // münchen.test
  'gmail.com': { mx: MX },
  'mailinator.com': { mx: MX },
};
const MAILBOXES: Record<string, MailboxBehaviour> = {
  'alice@example.test': 'accept',
  'info@example.test': 'accept',
  'quota@example.test': { code: 452, message: '4.2.2 The email account that you tried to reach is over quota.' },
  'full@example.test': { code: 552, message: '5.2.2 Mailbox full' },
  'storage@example.test': { code: 552, message: 'Requested mail action aborted: exceeded storage allocation' },
  'off@example.test': { code: 550, message: '5.2.1 The email account that you tried to reach is disabled.' },
  'old@example.test': { code: 550, message: 'Mailbox unavailable: account has been deactivated' },
  'nouser@example.test': { code: 550, message: 'No such user here' },
  'grey@example.test': { code: 450, message: '4.2.0 <grey@example.test>: Recipient address rejected: Greylisted, see https://postgrey.schweikert.ch/help/example.test.html' },
  'later@example.test': { code: 451, message: '4.7.1 Please try again later' },
  'spam@example.test': { code: 550, message: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org' },
  '*@catchall.test': 'accept',
  'bob@amx.test': 'accept',
  'carol@backup.test': 'accept',
  'jürgen@xn--mnchen-3ya.test': 'accept',
  'hans@xn--mnchen-3ya.test': 'accept',
  'john.doe@gmail.com': 'accept',
  'temp@mailinator.com': 'accept',
};

function service(port: number, dnsServer: string, over: Partial<EmailOptions> = {}): EmailCheckService {
  const options: EmailOptions = {
    smtpProbe: true,
    // Generous: the machine is shared, and smtp-server itself delays its greeting. The timeout
    // paths have their own short-fused service below.
    // The loopback SMTP server is not public: the probe may reach it only through the allow-list.
    smtp: { port, timeoutMs: 3000, heloName: 'probe.example.org', mailFrom: 'check@probe.example.org', allowed: parseCidrs(['127.0.0.0/8']) },
    dnsServers: [dnsServer],
    dnsTimeoutMs: 2000,
    budgetMs: 8000,
    cacheTtlMs: 60_000,
    cacheMaxEntries: 100,
    ...over,
  };
  const dns = new NodeMailDns({ servers: options.dnsServers, timeoutMs: options.dnsTimeoutMs });
  return new EmailCheckService(options, dns, new SmtpProber(options.smtp), new EmailLists());
}

describe('e-mail check against loopback DNS and SMTP servers', () => {
  const dns = new LoopbackDnsServer(ZONE);
  const smtp = new LoopbackSmtpServer({ mailboxes: MAILBOXES });
  const plain = new LoopbackSmtpServer({ mailboxes: MAILBOXES, starttls: false, smtputf8: false });
  let silent: Server;
  const silentSockets = new Set<Socket>();
  let dnsAddress: string;
  let port: number;
  let checks: EmailCheckService;

  beforeAll(async () => {
    dnsAddress = await dns.start();
    port = await smtp.start();
    // Same port on another loopback address: the MX that never says hello.
    silent = createServer((s) => (silentSockets.add(s), s.on('close', () => silentSockets.delete(s))));
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.3', resolve));
    checks = service(port, dnsAddress);
  });

  afterAll(async () => {
    for (const s of silentSockets) s.destroy();
    await new Promise((r) => silent?.close(r));
    await Promise.all([dns.stop(), smtp.stop(), plain.stop()]);
  });

  it('a plain existing mailbox is safe, over STARTTLS, with our EHLO name and sender', async () => {
    const before = smtp.sessions.length;
    const r = await checks.check('alice@example.test');
    expect(r).toMatchObject({
      email: 'alice@example.test',
      username: 'alice',
      domain: 'example.test',
      reachable: 'safe',
      mxValid: true,
      connection: true,
      deliverable: true,
      catchAll: false,
      inboxFull: false,
      disabled: false,
      disposable: false,
      roleAccount: false,
      free: false,
    });
    expect(r.email_id).toMatch(/^[0-9a-f]{24}$/);
    expect(r.took).toBeGreaterThan(0);
    const session = smtp.sessions[before];
    expect(session).toEqual({ secure: true, heloName: 'probe.example.org', mailFrom: 'check@probe.example.org', rcptTo: [expect.any(String), expect.any(String)] });
    // The second recipient is the random catch-all probe, never the address itself.
    expect(session.rcptTo[0]).toBe('alice@example.test');
    expect(session.rcptTo[1]).toMatch(/^z[0-9a-f]{20}@example\.test$/);
  });

  it.each([
    ['nouser@example.test', 'invalid', { deliverable: false, disabled: false, connection: true }],
    ['someone-else@example.test', 'invalid', { deliverable: false, disabled: false }],
    ['off@example.test', 'invalid', { disabled: true, deliverable: false }],
    ['old@example.test', 'invalid', { disabled: true }],
    ['quota@example.test', 'risky', { inboxFull: true, deliverable: false }],
    ['full@example.test', 'risky', { inboxFull: true }],
    ['storage@example.test', 'risky', { inboxFull: true }],
    ['grey@example.test', 'unknown', { connection: true, deliverable: false, inboxFull: false }],
    ['later@example.test', 'unknown', { connection: true, deliverable: false }],
    ['spam@example.test', 'unknown', { connection: true, deliverable: false, disabled: false }],
    ['anybody@catchall.test', 'risky', { catchAll: true, deliverable: true }],
    ['info@example.test', 'risky', { roleAccount: true, deliverable: true, catchAll: false }],
    ['temp@mailinator.com', 'risky', { disposable: true, deliverable: true, catchAll: false }],
    ['john.doe@gmail.com', 'safe', { free: true, deliverable: true }],
    ['bob@amx.test', 'safe', { mxValid: true, deliverable: true }],
    ['carol@backup.test', 'safe', { connection: true, deliverable: true }],
  ])('%s is %s', async (email, reachable, fields) => {
    expect(await checks.check(email)).toMatchObject({ email, reachable, ...fields });
  });

  it.each([
    ['x@gone.test', { mxValid: false }], // NXDOMAIN
    ['x@noaddr.test', { mxValid: false }], // exists, neither MX nor A
    ['x@nullmx.test', { mxValid: false }], // RFC 7505 null MX, even though it has an A record
    ['x@refused.test', { mxValid: true, connection: false }], // no server answers
    ['not an address', { mxValid: false, username: 'not an address', domain: '' }],
    ['a..b@example.test', { mxValid: false }],
  ])('%s is invalid', async (email, fields) => {
    expect(await checks.check(email)).toMatchObject({ reachable: 'invalid', deliverable: false, ...fields });
  });

  it('an MX that never greets, a DNS server that never answers and a SERVFAIL are unknown, within the budget', async () => {
    const quick = service(port, dnsAddress, { smtp: { port, timeoutMs: 1000, heloName: 'probe.example.org', mailFrom: 'check@probe.example.org', allowed: parseCidrs(['127.0.0.0/8']) }, dnsTimeoutMs: 600, budgetMs: 3000 });
    const t0 = Date.now();
    const [silentMx, dnsDown, servfail] = await Promise.all([quick.check('x@silent.test'), quick.check('x@dnsdown.test'), quick.check('x@servfail.test')]);
    expect(silentMx).toMatchObject({ reachable: 'unknown', mxValid: true, connection: false });
    expect(dnsDown).toMatchObject({ reachable: 'unknown', mxValid: false });
    expect(servfail).toMatchObject({ reachable: 'unknown', mxValid: false });
    expect(Date.now() - t0).toBeLessThan(3500);
  });

  it('an internationalised address: punycode domain in DNS and SMTP, SMTPUTF8 for a UTF-8 local part', async () => {
    const r = await checks.check('jürgen@MÜNCHEN.test');
    expect(r).toMatchObject({ username: 'jürgen', domain: 'münchen.test', reachable: 'safe', deliverable: true });
    expect(dns.queries).toContainEqual({ name: 'xn--mnchen-3ya.test', type: 'MX' });
    expect(smtp.commands).toContain('RCPT TO:<jürgen@xn--mnchen-3ya.test>');
    expect(smtp.commands).toContain('MAIL FROM:<check@probe.example.org> SMTPUTF8');
    expect((await checks.check('hans@xn--mnchen-3ya.test')).email_id).toBe((await checks.check('HANS@münchen.test')).email_id);
  });

  it('a server without STARTTLS is probed in plain text; one without SMTPUTF8 cannot take a UTF-8 mailbox', async () => {
    const plainPort = await plain.start();
    const viaPlain = service(plainPort, dnsAddress);
    expect(await viaPlain.check('alice@example.test')).toMatchObject({ reachable: 'safe', deliverable: true });
    expect(plain.sessions[0].secure).toBe(false);
    expect(await viaPlain.check('jürgen@münchen.test')).toMatchObject({ reachable: 'invalid', connection: true, deliverable: false });
  });

  it('with probing off the verdict is unknown and no SMTP connection is made', async () => {
    const before = smtp.sessions.length;
    const off = service(port, dnsAddress, { smtpProbe: false });
    expect(await off.check('alice@example.test')).toMatchObject({ reachable: 'unknown', mxValid: true, connection: false, deliverable: false });
    expect(await off.check('x@gone.test')).toMatchObject({ reachable: 'invalid' });
    expect(smtp.sessions.length).toBe(before);
  });

  it('finished verdicts are cached, unknown ones are not, and concurrent checks share one dialogue', async () => {
    const fresh = service(port, dnsAddress);
    const before = smtp.sessions.length;
    const [a, b] = await Promise.all([fresh.check('alice@example.test'), fresh.check('alice@example.test')]);
    expect(smtp.sessions.length).toBe(before + 1);
    const again = await fresh.check('alice@example.test');
    expect(smtp.sessions.length).toBe(before + 1);
    expect(again).toEqual({ ...a, took: again.took });
    expect(b.email_id).toBe(a.email_id);

    await fresh.check('grey@example.test');
    await fresh.check('grey@example.test');
    expect(smtp.sessions.length).toBe(before + 3);

    const uncached = service(port, dnsAddress, { cacheTtlMs: 0 });
    await uncached.check('alice@example.test');
    await uncached.check('alice@example.test');
    expect(smtp.sessions.length).toBe(before + 5);
  });
});
