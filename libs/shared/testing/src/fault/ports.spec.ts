import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '../tmp';
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
    const dir = tempDir('ports-');
    try {
      writeFileSync(join(dir.path, 'range'), '32768\t60999\n');
      expect(ephemeralPortRange(join(dir.path, 'range'))).toEqual([32768, 60999]);
      expect(ephemeralPortRange(join(dir.path, 'missing'))).toEqual([49152, 65535]);
    } finally {
      dir.remove();
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

  it('does not give a range another caller holds, even when the random pick lands on it again', async () => {
    const first = await freePortRange(2);
    // The random draws that pick `first` again (the span it lies in, then its place there).
    const spans = spansOutside(20000, 60000, ephemeralPortRange()).filter(([a, b]) => b - a >= 2);
    const at = spans.findIndex(([a, b]) => first >= a && first < b);
    const [a, b] = spans[at];
    const random = jest.spyOn(Math, 'random').mockReturnValueOnce((at + 0.5) / spans.length).mockReturnValueOnce((first - a + 0.5) / (b - a - 1));
    try {
      const second = await freePortRange(2);
      // The pick of `first` was refused: another attempt followed (two draws each). More than one
      // more is fine: other tests running at the same time hold ports and claims of their own.
      expect(random.mock.calls.length).toBeGreaterThanOrEqual(4);
      expect(random.mock.calls.length % 2).toBe(0);
      expect(Math.abs(second - first)).toBeGreaterThanOrEqual(2);
    } finally {
      random.mockRestore();
    }
  });
});
