import { createSocket, Socket } from 'node:dgram';
import { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** Records of one name in the test zone. */
export interface ZoneEntry {
  mx?: { exchange: string; priority: number }[];
  a?: string[];
  aaaa?: string[];
  /** Never answer queries for this name: a DNS timeout. */
  silent?: boolean;
  /** Answer SERVFAIL. */
  servfail?: boolean;
}

/**
 * A real authoritative DNS server over UDP on 127.0.0.1 for tests: answers MX/A/AAAA from a
 * zone map, NXDOMAIN for names not in it, NOERROR with no answers for absent types.
 */
export class LoopbackDnsServer {
  readonly queries: { name: string; type: string }[] = [];
  private socket: Socket | null = null;

  constructor(private readonly zone: Record<string, ZoneEntry>) {}

  async start(): Promise<string> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, rinfo) => {
      const reply = this.answer(msg);
      if (reply) socket.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    return `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private answer(msg: Buffer): Buffer | null {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return null;
    }
    const q = query.questions?.[0];
    if (!q) return null;
    const name = q.name.toLowerCase().replace(/\.$/, '');
    this.queries.push({ name, type: q.type });
    const entry = this.zone[name];
    if (entry?.silent) return null;
    // The response code is the low four bits of the flags: 3 NXDOMAIN, 2 SERVFAIL.
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | (!entry ? 3 : entry.servfail ? 2 : 0);
    const base = { id: query.id, type: 'response' as const, flags, questions: [q] };
    if (!entry || entry.servfail) return dnsPacket.encode(base);
    const answers: dnsPacket.Answer[] = [];
    if (q.type === 'MX') for (const mx of entry.mx ?? []) answers.push({ type: 'MX', name: q.name, ttl: 60, data: { preference: mx.priority, exchange: mx.exchange } });
    if (q.type === 'A') for (const a of entry.a ?? []) answers.push({ type: 'A', name: q.name, ttl: 60, data: a });
    if (q.type === 'AAAA') for (const a of entry.aaaa ?? []) answers.push({ type: 'AAAA', name: q.name, ttl: 60, data: a });
    return dnsPacket.encode({ ...base, answers });
  }
}
