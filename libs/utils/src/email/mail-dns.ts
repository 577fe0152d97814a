/** Where a domain's mail goes, as far as DNS can tell. */
export interface MailHost {
  exchange: string;
  priority: number;
  /** No MX records: the domain's own A/AAAA record serves as MX (RFC 5321 5.1). */
  implicit: boolean;
}

export type MailHostLookup =
  | { kind: 'hosts'; hosts: MailHost[] }
  /** The domain cannot receive mail: it does not exist, has no address, or publishes a null MX. */
  | { kind: 'none'; reason: 'nxdomain' | 'no-records' | 'null-mx' }
  /** DNS did not answer (timeout, SERVFAIL, refused): nothing can be concluded. */
  | { kind: 'failed'; reason: string };

/** The outside DNS, behind one port so tests and deployments choose the servers. */
export interface MailDns {
  mailHosts(asciiDomain: string, signal?: AbortSignal): Promise<MailHostLookup>;
  /** IPv4 then IPv6 addresses of a host; [] when it has none. Throws MailDnsError when DNS fails. */
  addresses(host: string, signal?: AbortSignal): Promise<string[]>;
}

export class MailDnsError extends Error {
  constructor(readonly code: string) {
    super(`DNS lookup failed: ${code}`);
    this.name = 'MailDnsError';
  }
}

/** One DNS answer for one record type, as the adapter reduces it. */
export type RecordAnswer<T> = { kind: 'records'; records: T[] } | { kind: 'nodata' } | { kind: 'nxdomain' } | { kind: 'failed'; code: string };

/**
 * The MX decision, kept pure: MX records sorted by preference; a single MX with an empty
 * exchange is RFC 7505's "null MX"; no MX at all falls back to the domain's own address.
 */
export function mailHostsFrom(
  domain: string,
  mx: RecordAnswer<{ exchange: string; priority: number }>,
  address: () => Promise<RecordAnswer<string>>,
): Promise<MailHostLookup> | MailHostLookup {
  if (mx.kind === 'failed') return { kind: 'failed', reason: `MX ${mx.code}` };
  if (mx.kind === 'nxdomain') return { kind: 'none', reason: 'nxdomain' };
  if (mx.kind === 'records' && mx.records.length > 0) {
    const usable = mx.records.filter((r) => r.exchange !== '' && r.exchange !== '.');
    if (usable.length === 0) return { kind: 'none', reason: 'null-mx' };
    const hosts = [...usable]
      .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
      .map((r) => ({ exchange: r.exchange.replace(/\.$/, '').toLowerCase(), priority: r.priority, implicit: false }));
    return { kind: 'hosts', hosts };
  }
  return address().then((a): MailHostLookup => {
    if (a.kind === 'failed') return { kind: 'failed', reason: `A ${a.code}` };
    if (a.kind === 'records' && a.records.length > 0) return { kind: 'hosts', hosts: [{ exchange: domain, priority: 0, implicit: true }] };
    return { kind: 'none', reason: a.kind === 'nxdomain' ? 'nxdomain' : 'no-records' };
  });
}
