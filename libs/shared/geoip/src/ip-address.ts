import ipaddr from 'ipaddr.js';

export interface ParsedIp {
  kind: 'ipv4' | 'ipv6';
  /** Canonical text: IPv4 dotted, IPv6 compressed; IPv4-mapped IPv6 becomes its IPv4 address. */
  text: string;
  /** The address as an integer (for range tables). */
  value: bigint;
  /** The address's bytes, 4 or 16 (for the MMDB tree). */
  bytes: Uint8Array;
  /** `unicast` for public addresses, else the reserved range's name (private, loopback, linkLocal, ...). */
  range: string;
}

/** Parses an address, or null when it is not one. */
export function parseIp(input: string): ParsedIp | null {
  const s = input.trim();
  if (!ipaddr.isValid(s)) return null;
  // ipaddr.js also accepts shorthand IPv4 like "10.1" and octal; only the four-part form is an address here.
  if (!s.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(s)) return null;
  let addr = ipaddr.parse(s);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const bytes = Uint8Array.from(addr.toByteArray());
  const value = bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return { kind: addr.kind(), text: addr.toString(), value, bytes, range: addr.range() };
}

/** Public addresses: everything outside the reserved ranges IANA lists. */
export function isPublic(ip: ParsedIp): boolean {
  return ip.range === 'unicast';
}
