import { ChildProcess, spawn } from 'node:child_process';
import { tcpReachable } from '../servers';
import { waitFor } from './process-wait';

export const NATS_SERVER_BIN = '/usr/sbin/nats-server';

/**
 * A nats-server of the test's own (JetStream on, store in `storeDir`), so a fault test can stop
 * and restart it without touching the shared one.
 */
export class NatsServerProcess {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    this.child = child;
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    await waitFor(`nats-server on :${this.port}`, () => tcpReachable('127.0.0.1', this.port, 300), 15000, 100);
  }

  /** SIGTERM: a clean server shutdown; clients see their connection close. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}
