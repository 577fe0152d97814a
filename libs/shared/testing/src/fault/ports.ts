import { mkdirSync, openSync, closeSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The kernel's range for outgoing connections' local ports (Linux: 32768-60999). A port found
 * free there can be taken by any outgoing connection (a test's client to PostgreSQL, NATS or
 * OpenSearch) before the server it was picked for binds it: CI once saw `EADDRINUSE` that way.
 */
export function ephemeralPortRange(file = '/proc/sys/net/ipv4/ip_local_port_range'): [number, number] {
  try {
    const [lo, hi] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi) && lo <= hi) return [lo, hi];
  } catch {
    // not Linux: IANA's dynamic range is what other systems use
  }
  return [49152, 65535];
}

/** The spans of [from, to) that lie outside the ephemeral range. */
export function spansOutside(from: number, to: number, [lo, hi]: [number, number]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (from < lo) spans.push([from, Math.min(to, lo)]);
  if (to > hi + 1) spans.push([Math.max(from, hi + 1), to]);
  return spans;
}

const CLAIMS = join(tmpdir(), 'lookup-test-ports');
const CLAIM_STALE_MS = 30 * 60_000;

/**
 * A claim on a port for this test run, so two test processes picking at the same moment do not
 * get the same range (a file created exclusively; one older than 30 minutes is stale).
 */
function claim(port: number): boolean {
  const file = join(CLAIMS, String(port));
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < CLAIM_STALE_MS) return false;
      unlinkSync(file);
      closeSync(openSync(file, 'wx'));
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * `count` consecutive free loopback ports (the stack runner puts its services after the gateway),
 * outside the kernel's ephemeral range and claimed against other test processes.
 */
export async function freePortRange(count: number, from = 20000, to = 60000): Promise<number> {
  const spans = spansOutside(from, to, ephemeralPortRange()).filter(([a, b]) => b - a >= count);
  if (spans.length === 0) throw new Error(`no span of ${count} ports in ${from}-${to} outside the ephemeral range`);
  mkdirSync(CLAIMS, { recursive: true });
  for (let attempt = 0; attempt < 200; attempt++) {
    const [a, b] = spans[Math.floor(Math.random() * spans.length)];
    const base = a + Math.floor(Math.random() * (b - a - count + 1));
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = claim(p) && (await canListen(p));
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
