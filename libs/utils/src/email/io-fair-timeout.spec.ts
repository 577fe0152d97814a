import { createServer, connect, AddressInfo, Socket } from 'node:net';
import { ioFairTimeout } from './io-fair-timeout';

/** Blocks the event loop, as a long synchronous task elsewhere in the process would. */
function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
}

describe('ioFairTimeout', () => {
  it('fires after its time when nothing cancels it, and not after cancel', async () => {
    const fired: string[] = [];
    const start = performance.now();
    let firedAt = 0;
    // Waits for the callback itself, not a fixed time: on a loaded machine a 50 ms sleep can end
    // in the same timers phase as the 10 ms timer, before the immediate that runs the callback.
    await new Promise<void>((resolve) =>
      ioFairTimeout(() => {
        firedAt = performance.now();
        fired.push('a');
        resolve();
      }, 10),
    );
    const cancel = ioFairTimeout(() => fired.push('b'), 10);
    cancel();
    // Past b's time, and past the immediate it would have queued then.
    await new Promise((r) => setTimeout(r, 30));
    await new Promise((r) => setImmediate(r));
    expect(fired).toEqual(['a']);
    expect(firedAt - start).toBeGreaterThanOrEqual(9);
  });

  it('lets data that arrived during a stall win over a deadline that passed during it', async () => {
    let serverSide: Socket | undefined;
    const server = createServer((s) => (serverSide = s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((r) => setTimeout(r, 50)); // both ends connected
    const result = { fair: '', plain: '' };
    const done = new Promise<void>((resolve) =>
      client.once('data', () => {
        result.fair ||= 'data';
        result.plain ||= 'data';
        cancelFair();
        clearTimeout(plain);
        resolve();
      }),
    );
    const cancelFair = ioFairTimeout(() => (result.fair ||= 'timeout'), 20);
    const plain = setTimeout(() => (result.plain ||= 'timeout'), 20);
    // The answer is sent, then the loop is stuck past both deadlines: on the next turn the
    // timers are due before the socket is read.
    setImmediate(() => {
      serverSide?.write('220 hello\r\n');
      stall(150);
    });
    await done;
    client.destroy();
    serverSide?.destroy();
    server.close();
    expect(result.fair).toBe('data');
    // What a plain timer does in the same situation: why the helper exists.
    expect(result.plain).toBe('timeout');
  });
});
