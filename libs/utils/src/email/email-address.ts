import { createHash } from 'node:crypto';
import { domainToASCII, domainToUnicode } from 'node:url';

/** An address that passed the syntax check (RFC 5321/5322 with RFC 6531 UTF-8). */
export interface ParsedAddress {
  ok: true;
  /** The address as given, trimmed and NFC-normalised. */
  email: string;
  username: string;
  /** Lower case, Unicode form (what a person reads). */
  domain: string;
  /** A-label (punycode) form: what DNS and SMTP use. */
  asciiDomain: string;
  /** A non-ASCII local part can only be delivered by a server that offers SMTPUTF8. */
  needsSmtpUtf8: boolean;
}

export interface InvalidAddress {
  ok: false;
  email: string;
  username: string;
  domain: string;
  why: string;
}

const MAX_LOCAL_OCTETS = 64;
const MAX_ADDRESS_OCTETS = 254; // RFC 5321 path limit (256) minus the angle brackets
const MAX_DOMAIN_OCTETS = 253;

// RFC 5322 atext, widened by RFC 6531 to any non-ASCII character.
const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u;
// Quoted string content: printable ASCII except `"` and `\` (which need a backslash), space, UTF-8.
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\u{10FFFF}]|\\[\x20-\x7e])*"$/u;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const octets = (s: string) => Buffer.byteLength(s, 'utf8');

/** Splits and checks an address; never throws. */
export function parseAddress(input: string): ParsedAddress | InvalidAddress {
  const email = input.trim().normalize('NFC');
  const at = email.lastIndexOf('@');
  const username = at >= 0 ? email.slice(0, at) : email;
  const rawDomain = at >= 0 ? email.slice(at + 1) : '';
  const invalid = (why: string): InvalidAddress => ({ ok: false, email, username, domain: rawDomain.toLowerCase(), why });

  if (at < 0) return invalid('no @');
  if (!localPartValid(username)) return invalid('local part');
  // Domain literals ([192.0.2.1]) are legal but have no MX to look up; real mail does not use them.
  if (rawDomain.startsWith('[')) return invalid('domain literal');
  const asciiDomain = toAsciiDomain(rawDomain);
  if (!asciiDomain) return invalid('domain');
  if (octets(username) + 1 + asciiDomain.length > MAX_ADDRESS_OCTETS) return invalid('too long');
  return {
    ok: true,
    email,
    username,
    domain: domainToUnicode(asciiDomain) || asciiDomain,
    asciiDomain,
    needsSmtpUtf8: /[^\x00-\x7f]/.test(username),
  };
}

function localPartValid(local: string): boolean {
  if (local.length === 0 || octets(local) > MAX_LOCAL_OCTETS) return false;
  if (local.startsWith('"')) return QUOTED.test(local);
  return local.split('.').every((atom) => ATOM.test(atom));
}

/** The A-label form of a host name that can carry mail, or '' when it is not one. */
export function toAsciiDomain(domain: string): string {
  if (!domain || domain.endsWith('.')) return '';
  // WHATWG's domainToASCII does UTS #46 mapping (case folding, full-width dots) and punycode.
  const ascii = domainToASCII(domain.toLowerCase());
  if (!ascii || ascii.length > MAX_DOMAIN_OCTETS) return '';
  const labels = ascii.split('.');
  // A bare TLD or an all-numeric "TLD" (an IP address) is not a mail domain.
  if (labels.length < 2 || /^[0-9]+$/.test(labels[labels.length - 1])) return '';
  return labels.every((l) => LABEL.test(l)) ? ascii : '';
}

/**
 * `email_id`: the first 24 hex digits of SHA-256 over the lower-cased local part, `@` and the
 * A-label domain, so the same mailbox in any spelling (IDN or punycode, any case) has one id.
 */
export function emailId(parsed: ParsedAddress | InvalidAddress): string {
  const key = parsed.ok ? `${parsed.username}@${parsed.asciiDomain}` : parsed.email;
  return createHash('sha256').update(key.toLowerCase(), 'utf8').digest('hex').slice(0, 24);
}
