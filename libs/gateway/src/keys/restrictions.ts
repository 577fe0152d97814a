import { isIP } from 'node:net';

/**
 * Origins: exact `scheme://host[:port]`, or `*.example.com` for any subdomain (any scheme).
 * A request without an Origin header (server-to-server) passes only an unrestricted key.
 */
export function originAllowed(allowed: string[], origin: string | undefined): boolean {
  if (allowed.length === 0) return true;
  if (!origin) return false;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  const o = origin.toLowerCase().replace(/\/$/, '');
  return allowed.some((a) => {
    const rule = a.toLowerCase().replace(/\/$/, '');
    if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) || host === rule.slice(2);
    return rule === o;
  });
}

/** IPs: exact addresses or IPv4/IPv6 CIDR blocks. IPv4-mapped IPv6 is compared as IPv4. */
export function ipAllowed(allowed: string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const addr = normalize(ip);
  return allowed.some((rule) => {
    const [net, bitsText] = rule.split('/');
    if (bitsText === undefined) return normalize(net) === addr;
    return inCidr(addr, normalize(net), Number(bitsText));
  });
}

function normalize(ip: string): string {
  const v = ip.trim().toLowerCase();
  return v.startsWith('::ffff:') && isIP(v.slice(7)) === 4 ? v.slice(7) : v;
}

function toBits(ip: string): bigint | null {
  const kind = isIP(ip);
  if (kind === 4) return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  if (kind !== 6) return null;
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function inCidr(ip: string, net: string, bits: number): boolean {
  if (isIP(ip) !== isIP(net) || !Number.isInteger(bits)) return false;
  const width = isIP(ip) === 4 ? 32 : 128;
  if (bits < 0 || bits > width) return false;
  const a = toBits(ip);
  const b = toBits(net);
  if (a === null || b === null) return false;
  const shift = BigInt(width - bits);
  return a >> shift === b >> shift;
}
