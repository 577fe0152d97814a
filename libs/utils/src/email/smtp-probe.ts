import { randomBytes } from 'node:crypto';
import { classifyRcpt, extensionsOf, replyText, RcptVerdict, SmtpReply } from './smtp-reply';
import { SmtpConnection, SmtpFailure } from './smtp.connection';
import { isIpLiteral, SmtpTargetPolicy } from './smtp-target-policy';
import type { BlockList } from 'node:net';

export interface SmtpProbeOptions {
  port: number;
  /** Bound on each step: connect, each reply, the TLS handshake. */
  timeoutMs: number;
  heloName: string;
  mailFrom: string;
  /** Non-public addresses that may still be probed (tests, private deployments); default none. */
  allowed?: BlockList;
}

export interface ProbeRequest {
  /** Mail exchangers, best first. */
  hosts: string[];
  /** Resolves an exchanger's name with the configured DNS (the system resolver may not know it). */
  resolve: (host: string) => Promise<string[]>;
  localPart: string;
  asciiDomain: string;
  needsSmtpUtf8: boolean;
  signal?: AbortSignal;
}

export type ProbeOutcome =
  /** The server answered RCPT TO. */
  | { kind: 'answered'; host: string; rcpt: RcptVerdict; catchAll: boolean; tls: boolean; reply: string }
  /** Every exchanger refused the connection or has no address: nothing receives mail. */
  | { kind: 'no-server'; detail: string }
  /** The local part needs SMTPUTF8 and the server does not offer it: it cannot be delivered there. */
  | { kind: 'utf8-unsupported'; host: string }
  /** Timeouts, a refusing greeting, a refused sender, a failed handshake: no conclusion. */
  | { kind: 'inconclusive'; detail: string }
  /** Every exchanger is an IP literal or has only non-public addresses: not contacted (SSRF guard). */
  | { kind: 'not-probed'; detail: string };

/** Checks a mailbox without sending mail: behind one port so the service does not know sockets. */
export interface MailboxProber {
  probe(request: ProbeRequest): Promise<ProbeOutcome>;
}

/** Exchangers tried when the better ones cannot be reached; more only spends the budget. */
const MAX_ATTEMPTS = 3;

/** The SMTP dialogue: EHLO, STARTTLS when offered, MAIL FROM, RCPT TO, a random RCPT for catch-all, QUIT. */
export class SmtpProber implements MailboxProber {
  private readonly targets: SmtpTargetPolicy;

  constructor(private readonly options: SmtpProbeOptions) {
    this.targets = new SmtpTargetPolicy(options.allowed);
  }

  async probe(req: ProbeRequest): Promise<ProbeOutcome> {
    const failures: SmtpFailure[] = [];
    const refused: string[] = [];
    let attempts = 0;
    for (const host of req.hosts) {
      if (isIpLiteral(host)) {
        refused.push(`MX ${host} is an IP literal`);
        continue;
      }
      let resolved: string[];
      try {
        resolved = await req.resolve(host);
      } catch (err) {
        failures.push(new SmtpFailure('timeout', `resolving ${host}: ${(err as Error).message}`));
        continue;
      }
      // We connect to the very address judged here, so a second DNS answer cannot swap it.
      const addresses = resolved.filter((a) => {
        const why = this.targets.refusal(a);
        if (why) refused.push(`${host}: ${why}`);
        return why === null;
      });
      for (const address of addresses) {
        if (attempts++ >= MAX_ATTEMPTS || req.signal?.aborted) return summarise(failures);
        try {
          return await this.dialogue(host, address, req, true).catch((err: unknown) => {
            // A broken TLS stack is common on small servers; MTAs then deliver in plain text, so do we.
            if (err instanceof SmtpFailure && err.kind === 'tls' && !req.signal?.aborted) return this.dialogue(host, address, req, false);
            throw err;
          });
        } catch (err) {
          if (!(err instanceof SmtpFailure)) throw err;
          failures.push(err);
          // Only an unreachable exchanger sends us to the next one; a server that talked has spoken.
          if (err.kind !== 'refused' && err.kind !== 'connect-timeout') return summarise(failures);
        }
      }
    }
    if (attempts === 0 && refused.length > 0) return { kind: 'not-probed', detail: `not probed: ${refused.join('; ')}` };
    return summarise(failures);
  }

  private async dialogue(host: string, address: string, req: ProbeRequest, useTls: boolean): Promise<ProbeOutcome> {
    const t = this.options.timeoutMs;
    const conn = await SmtpConnection.open(address, this.options.port, t, req.signal);
    try {
      const greeting = await conn.read(t, 'greeting');
      if (greeting.code !== 220) return inconclusive(`${host} greeted with ${describe(greeting)}`);
      let ext = await this.hello(conn);
      if (useTls && ext.has('STARTTLS')) {
        const go = await conn.command('STARTTLS', t);
        if (go.code === 220) {
          await conn.startTls(host, t);
          ext = await this.hello(conn);
        }
      }
      if (req.needsSmtpUtf8 && !ext.has('SMTPUTF8')) return { kind: 'utf8-unsupported', host };
      const utf8 = req.needsSmtpUtf8 ? ' SMTPUTF8' : '';
      const from = await conn.command(`MAIL FROM:<${this.options.mailFrom}>${utf8}`, t);
      if (from.code >= 300) return inconclusive(`${host} refused the sender: ${describe(from)}`);
      const rcptReply = await conn.command(`RCPT TO:<${req.localPart}@${req.asciiDomain}>`, t);
      const rcpt = classifyRcpt(rcptReply);
      const catchAll = rcpt === 'accepted' && (await this.acceptsAnyone(conn, req.asciiDomain));
      return { kind: 'answered', host, rcpt, catchAll, tls: conn.secure, reply: describe(rcptReply) };
    } finally {
      await conn.quit(t);
    }
  }

  private async hello(conn: SmtpConnection): Promise<Map<string, string>> {
    const ehlo = await conn.command(`EHLO ${this.options.heloName}`, this.options.timeoutMs);
    if (ehlo.code === 250) return extensionsOf(ehlo);
    // An old server without ESMTP: no extensions, so no STARTTLS and no SMTPUTF8.
    const helo = await conn.command(`HELO ${this.options.heloName}`, this.options.timeoutMs);
    if (helo.code !== 250) throw new SmtpFailure('protocol', `HELO refused: ${describe(helo)}`);
    return new Map();
  }

  /** A local part nobody has: if the server takes it, it takes everything. */
  private async acceptsAnyone(conn: SmtpConnection, asciiDomain: string): Promise<boolean> {
    const nobody = `z${randomBytes(10).toString('hex')}`;
    try {
      return classifyRcpt(await conn.command(`RCPT TO:<${nobody}@${asciiDomain}>`, this.options.timeoutMs)) === 'accepted';
    } catch {
      // The real recipient was already answered; a lost second answer does not change it.
      return false;
    }
  }
}

function describe(r: SmtpReply): string {
  return `${r.code} ${replyText(r)}`.slice(0, 200);
}

function inconclusive(detail: string): ProbeOutcome {
  return { kind: 'inconclusive', detail };
}

function summarise(failures: SmtpFailure[]): ProbeOutcome {
  if (failures.length === 0) return { kind: 'no-server', detail: 'no exchanger has an address' };
  if (failures.every((f) => f.kind === 'refused')) return { kind: 'no-server', detail: failures.map((f) => f.message).join('; ') };
  return inconclusive(failures.map((f) => f.message).join('; '));
}
