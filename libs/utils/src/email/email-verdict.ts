import { EmailCheckResult, EmailVerdict } from '@lookup/contracts';
import { InvalidAddress, ParsedAddress } from './email-address';
import { MailHostLookup } from './mail-dns';
import { ProbeOutcome } from './smtp-probe';

/** Everything the check learned; how far it got decides which parts are present. */
export interface EmailFacts {
  address: ParsedAddress | InvalidAddress;
  disposable: boolean;
  roleAccount: boolean;
  free: boolean;
  /** Absent when the syntax already failed. */
  dns?: MailHostLookup;
  /** 'off' when SMTP probing is switched off; absent when DNS already decided. */
  probe?: ProbeOutcome | 'off';
}

export type EmailVerdictFields = Omit<EmailCheckResult, 'email_id' | 'took'>;

/**
 * The verdict rules (those of the open-source check-if-email-exists, narrowed so that only an
 * existing mailbox can be risky):
 * - invalid: bad syntax, no mail server for the domain, every server refusing connections,
 *   or a RCPT answer saying the mailbox does not exist or is disabled;
 * - unknown: the check could not finish: DNS failure, probing off, timeout, greylisting,
 *   a server refusing us rather than the mailbox;
 * - risky: the mailbox exists (or the inbox is full) but is disposable, a role, catch-all or full;
 * - safe: otherwise.
 */
export function verdictOf(f: EmailFacts): EmailVerdictFields {
  const probe = typeof f.probe === 'object' ? f.probe : undefined;
  const answered = probe?.kind === 'answered' ? probe : undefined;
  const { email, username, domain } = f.address;
  // Built in the spec's field order, which JSON keeps.
  const r = (reachable: EmailVerdict): EmailVerdictFields => ({
    email,
    username,
    domain,
    reachable,
    disposable: f.disposable,
    roleAccount: f.roleAccount,
    mxValid: f.dns?.kind === 'hosts',
    connection: answered !== undefined || probe?.kind === 'utf8-unsupported',
    inboxFull: answered?.rcpt === 'full',
    catchAll: answered?.catchAll ?? false,
    deliverable: answered?.rcpt === 'accepted',
    disabled: answered?.rcpt === 'disabled',
    free: f.free,
  });

  if (!f.address.ok || !f.dns) return r('invalid');
  if (f.dns.kind === 'none') return r('invalid');
  if (f.dns.kind === 'failed' || !f.probe || f.probe === 'off') return r('unknown');
  if (f.probe.kind === 'no-server' || f.probe.kind === 'utf8-unsupported') return r('invalid');
  if (!answered) return r('unknown');
  switch (answered.rcpt) {
    case 'temporary':
    case 'blocked':
      return r('unknown');
    case 'rejected':
    case 'disabled':
      return r('invalid');
    case 'full':
    case 'accepted':
      return r(f.disposable || f.roleAccount || answered.catchAll || answered.rcpt === 'full' ? 'risky' : 'safe');
  }
}
