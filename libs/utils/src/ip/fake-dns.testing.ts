import { createSocket, RemoteInfo, Socket } from 'node:dgram';
import { AddressInfo } from 'node:net';

/** A loopback DNS server over UDP answering PTR queries from a table; other names get NXDOMAIN. */
export interface FakeDns {
  /** `127.0.0.1:port`, for IP_DNS_SERVERS. */
  address: string;
  queries: string[];
  /** Names whose answer is held back this long (to trip the resolver's timeout). */
  slow: Map<string, number>;
  close(): Promise<void>;
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  return { name: labels.join('.'), end: i + 1 };
}

function encodeName(name: string): Buffer {
  const parts = name.split('.').filter(Boolean).map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** Builds the reply to one query (RFC 1035 section 4). */
function reply(query: Buffer, ptr: Record<string, string>): { name: string; packet: Buffer } {
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const target = qtype === 12 ? ptr[name.toLowerCase()] : undefined;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8180 | (target ? 0 : 3), 2); // response, RD+RA, rcode NOERROR or NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(target ? 1 : 0, 6);
  if (!target) return { name, packet: Buffer.concat([header, question]) };
  const rdata = encodeName(target);
  const rr = Buffer.alloc(12);
  rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
  rr.writeUInt16BE(12, 2);
  rr.writeUInt16BE(1, 4);
  rr.writeUInt32BE(300, 6);
  rr.writeUInt16BE(rdata.length, 10);
  return { name, packet: Buffer.concat([header, question, rr, rdata]) };
}

/** `ptr` maps reverse names (`1.1.1.1.in-addr.arpa`) to host names. */
export async function fakeDns(ptr: Record<string, string>): Promise<FakeDns> {
  const socket: Socket = createSocket('udp4');
  const state = { queries: [] as string[], slow: new Map<string, number>() };
  const held = new Set<NodeJS.Timeout>();
  let open = true;
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const { name, packet } = reply(msg, ptr);
    state.queries.push(name);
    const send = () => open && socket.send(packet, from.port, from.address, () => undefined);
    const delay = state.slow.get(name);
    if (!delay) return send();
    const timer = setTimeout(() => {
      held.delete(timer);
      send();
    }, delay);
    held.add(timer);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    ...state,
    close: () => {
      open = false;
      for (const t of held) clearTimeout(t);
      return new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

/** The reverse-lookup name of an IPv4 address. */
export function reverseName(ipv4: string): string {
  return `${ipv4.split('.').reverse().join('.')}.in-addr.arpa`;
}
