import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { SMTPServer, SMTPServerAddress, SMTPServerOptions, SMTPServerSession } from 'smtp-server';

/** How the test server answers RCPT TO for one address or (with `*`) a whole domain. */
export type MailboxBehaviour = { code: number; message: string } | 'accept';

export interface LoopbackSmtpOptions {
  /** `local@domain` or `*@domain` -> behaviour; anything else: 550 5.1.1 user unknown. */
  mailboxes: Record<string, MailboxBehaviour>;
  /** Offer STARTTLS with the fixture certificate (default true). */
  starttls?: boolean;
  /** Advertise SMTPUTF8 (default true). */
  smtputf8?: boolean;
  host?: string;
  port?: number;
}

export interface SeenSession {
  secure: boolean;
  heloName: string | undefined;
  mailFrom: string | undefined;
  rcptTo: string[];
}

const TLS_DIR = join(__dirname, 'fixtures', 'tls');

/**
 * A real SMTP server (npm smtp-server) on loopback whose mailboxes accept, reject, are full,
 * catch-all or greylist, each with the reply wording real servers use. No message is accepted:
 * DATA is refused, and the probe never gets that far anyway.
 */
export class LoopbackSmtpServer {
  readonly sessions: SeenSession[] = [];
  /** Every command line as the client sent it (smtp-server itself turns punycode into Unicode). */
  readonly commands: string[] = [];
  private server: SMTPServer | null = null;

  constructor(private readonly options: LoopbackSmtpOptions) {}

  async start(): Promise<number> {
    const starttls = this.options.starttls ?? true;
    const server = new SMTPServer({
      secure: false,
      key: starttls ? readFileSync(join(TLS_DIR, 'key.pem')) : undefined,
      cert: starttls ? readFileSync(join(TLS_DIR, 'cert.pem')) : undefined,
      hideSTARTTLS: !starttls,
      hideSMTPUTF8: !(this.options.smtputf8 ?? true),
      // Real servers write their own enhanced codes in the text; we do so per behaviour.
      hideENHANCEDSTATUSCODES: true,
      disabledCommands: ['AUTH'],
      authOptional: true,
      disableReverseLookup: true,
      logger: this.wireLogger(),
      onConnect: (session, cb) => {
        this.sessions.push({ secure: false, heloName: undefined, mailFrom: undefined, rcptTo: [] });
        (session as SMTPServerSession & { seen?: SeenSession }).seen = this.sessions[this.sessions.length - 1];
        cb();
      },
      onMailFrom: (address, session, cb) => {
        const seen = seenOf(session);
        seen.mailFrom = address.address;
        seen.heloName = session.hostNameAppearsAs;
        seen.secure = session.secure;
        cb();
      },
      onRcptTo: (address, session, cb) => {
        seenOf(session).rcptTo.push(address.address);
        const b = this.behaviourOf(address);
        if (b === 'accept') return cb();
        const err = new Error(b.message) as Error & { responseCode: number };
        err.responseCode = b.code;
        cb(err);
      },
      onData: (stream, _session, cb) => {
        stream.resume();
        const err = new Error('5.7.0 This test server takes no mail') as Error & { responseCode: number };
        err.responseCode = 554;
        stream.on('end', () => cb(err));
      },
    });
    server.on('error', () => undefined);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private wireLogger(): SMTPServerOptions['logger'] {
    const none = () => undefined;
    const debug = (_meta: unknown, tag: unknown, line: unknown) => {
      if (tag === 'C:' && typeof line === 'string') this.commands.push(line);
    };
    return { info: none, warn: none, error: none, trace: none, fatal: none, debug } as unknown as SMTPServerOptions['logger'];
  }

  private behaviourOf(address: SMTPServerAddress): MailboxBehaviour {
    // Keys use the A-label domain; smtp-server hands us the U-label.
    const at = address.address.lastIndexOf('@');
    const domain = domainToASCII(address.address.slice(at + 1).toLowerCase());
    const addr = `${address.address.slice(0, at).toLowerCase()}@${domain}`;
    return (
      this.options.mailboxes[addr] ??
      this.options.mailboxes[`*@${domain}`] ?? { code: 550, message: `5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table` }
    );
  }
}

function seenOf(session: SMTPServerSession): SeenSession {
  return (session as SMTPServerSession & { seen: SeenSession }).seen;
}
