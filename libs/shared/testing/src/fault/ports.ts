import { createServer } from 'node:net';

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** `count` consecutive free loopback ports (the stack runner puts its services after the gateway). */
export async function freePortRange(count: number, from = 20000, to = 60000): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = from + Math.floor(Math.random() * (to - from - count));
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = await canListen(p);
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
