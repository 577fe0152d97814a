import { ChildProcess, spawn } from 'node:child_process';
import { waitFor } from './process-wait';

/** A compiled app (`dist/apps/<app>/src/main.js`) as its own process, as `npm start` runs it. */
export class NodeAppProcess {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];

  constructor(
    private readonly root: string,
    private readonly main: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The running process's id (memory readings from /proc), undefined when it is not running. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts it and waits for `/health/ready`; the last output lines explain a failure. */
  async start(timeoutMs = 90000): Promise<void> {
    const child = spawn(process.execPath, ['-r', './tools/paths.js', this.main], { cwd: this.root, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (b: Buffer) => this.output.push(...b.toString().split('\n').filter(Boolean).slice(-50));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => (this.child = null));
    try {
      await waitFor(`${this.main} on :${this.port}`, async () => {
        if (!this.child) throw new Error('exited');
        return (await fetch(`${this.url}/health/ready`, { signal: AbortSignal.timeout(2000) })).ok;
      }, timeoutMs, 250);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${this.output.slice(-20).join('\n')}`);
    }
  }

  /** SIGTERM, SIGKILL after `graceMs`. */
  async stop(graceMs = 10000): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
