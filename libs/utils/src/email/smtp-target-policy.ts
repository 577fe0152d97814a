import { BlockList, isIP } from 'node:net';

/**
 * Address ranges no mail exchanger on the public internet uses. Probing them would make the
 * e-mail check a port-25 scanner of the networks our server sits in (SSRF, issue 16).
 */
const NOT_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique local (ULA)
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // old site-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [net, bits, type] of NOT_PUBLIC) notPublic.addSubnet(net, bits, type);

/** `::ffff:10.0.0.1` and `::10.0.0.1` name IPv4 addresses: judged as the IPv4 address they carry. */
function normalize(ip: string): { ip: string; type: 'ipv4' | 'ipv6' } | null {
  const v = ip.trim().toLowerCase().replace(/^\[|\]$/g, '');
  const kind = isIP(v);
  if (kind === 4) return { ip: v, type: 'ipv4' };
  if (kind !== 6) return null;
  const embedded = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(v);
  if (embedded) return { ip: embedded[1], type: 'ipv4' };
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v);
  if (hexMapped) {
    const n = (parseInt(hexMapped[1], 16) << 16) | parseInt(hexMapped[2], 16);
    return { ip: [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.'), type: 'ipv4' };
  }
  return { ip: v, type: 'ipv6' };
}

/** Parses `EMAIL_SMTP_ALLOWED_CIDRS` entries (`10.0.0.0/8`, `::1/128`, or a bare address); throws naming a bad one. */
export function parseCidrs(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [net, bitsText] = entry.split('/');
    const addr = normalize(net);
    const width = addr?.type === 'ipv4' ? 32 : 128;
    const bits = bitsText === undefined ? width : Number(bitsText);
    if (!addr || !/^\d*$/.test(bitsText ?? '') || !Number.isInteger(bits) || bits < 0 || bits > width) {
      throw new Error(`EMAIL_SMTP_ALLOWED_CIDRS: "${entry}" is not an address or CIDR block`);
    }
    list.addSubnet(addr.ip, bits, addr.type);
  }
  return list;
}

/** Which mail-server addresses the probe may connect to: public ones, and those the operator allowed. */
export class SmtpTargetPolicy {
  constructor(private readonly allowed: BlockList = new BlockList()) {}

  /** Null when the address may be probed, else why not. */
  refusal(ip: string): string | null {
    const addr = normalize(ip);
    if (!addr) return `${ip} is not an address`;
    if (this.allowed.check(addr.ip, addr.type)) return null;
    if (notPublic.check(addr.ip, addr.type)) return `${ip} is not a public address (allow it with EMAIL_SMTP_ALLOWED_CIDRS)`;
    return null;
  }
}

/** An MX naming an address instead of a host is not valid DNS for mail (RFC 5321 5.1) and is never probed. */
export function isIpLiteral(exchange: string): boolean {
  return normalize(exchange) !== null;
}
