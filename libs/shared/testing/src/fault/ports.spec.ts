import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralPortRange, freePortRange, spansOutside } from './ports';

describe('freePortRange', () => {
  it('keeps out of the kernel range that outgoing connections take their local ports from', () => {
    expect(spansOutside(20000, 60000, [32768, 60999])).toEqual([[20000, 32768]]);
    expect(spansOutside(20000, 60000, [49152, 65535])).toEqual([[20000, 49152]]);
    expect(spansOutside(20000, 60000, [10000, 30000])).toEqual([[30001, 60000]]);
    expect(spansOutside(20000, 60000, [25000, 30000])).toEqual([
      [20000, 25000],
      [30001, 60000],
    ]);
    expect(spansOutside(20000, 30000, [10000, 40000])).toEqual([]);
  });

  it('reads the range the kernel uses, and falls back to the dynamic range elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ports-'));
    try {
      writeFileSync(join(dir, 'range'), '32768\t60999\n');
      expect(ephemeralPortRange(join(dir, 'range'))).toEqual([32768, 60999]);
      expect(ephemeralPortRange(join(dir, 'missing'))).toEqual([49152, 65535]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives ranges outside the ephemeral range that can be bound, and never the same range twice at once', async () => {
    const [lo, hi] = ephemeralPortRange();
    const bases = await Promise.all(Array.from({ length: 8 }, () => freePortRange(4)));
    const ports = bases.flatMap((b) => [b, b + 1, b + 2, b + 3]);
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) expect(p < lo || p > hi).toBe(true);
    const srv = createServer();
    await new Promise<void>((ok, fail) => srv.once('error', fail).listen(bases[0], '127.0.0.1', ok));
    await new Promise((ok) => srv.close(ok));
  });
});
