import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { StackApp } from './stack.apps';

export type LogSink = (app: string, line: string) => void;

/** How an app ended: its exit code or signal, and whether the grace period ran out. */
export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  forced: boolean;
}

/** How many of an app's last log lines are kept, to print when it fails. */
const KEPT_LINES = 30;

/** One app's process: started with the path aliases hook, logs prefixed, stopped gracefully. */
export class AppProcess {
  private child: ChildProcess | null = null;
  private readonly tail: string[] = [];
  private exited: Promise<AppExit> = Promise.resolve({ code: null, signal: null, forced: false });
  private stopping = false;
  private forced = false;
  onUnexpectedExit: (app: string, code: number | null) => void = () => undefined;

  constructor(
    readonly app: StackApp,
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: LogSink,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The app's last log lines (stdout and stderr), for a failure report. */
  lastLines(): readonly string[] {
    return this.tail;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get url(): string {
    return `http://127.0.0.1:${this.app.port}`;
  }

  start(): void {
    const args = [...this.app.nodeArgs, '-r', './tools/paths.js', this.app.main];
    // detached: Ctrl-C in the terminal reaches only the runner, which stops the apps in order.
    const child = spawn(process.execPath, args, { cwd: this.root, env: this.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      if (stream)
        createInterface({ input: stream }).on('line', (l) => {
          this.tail.push(l);
          if (this.tail.length > KEPT_LINES) this.tail.shift();
          this.log(this.app.name, l);
        });
    }
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.child = null;
        if (!this.stopping) this.onUnexpectedExit(this.app.name, code ?? (signal ? 128 : null));
        resolve({ code, signal, forced: this.forced });
      });
    });
  }

  /** Polls `/health/ready` until 200, the process dies, or the deadline passes. */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      if (!this.child) throw new Error(`${this.app.name} exited before it was ready`);
      try {
        const res = await fetch(`${this.url}/health/ready`, { signal: AbortSignal.timeout(2500) });
        if (res.ok) return;
        last = `${res.status} ${await res.text()}`;
      } catch (err) {
        last = (err as Error).message;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${this.app.name} not ready on :${this.app.port} after ${timeoutMs} ms (${last})`);
  }

  /**
   * SIGTERM lets the app drain its NATS subscriptions and finish in-flight requests (Nest
   * shutdown hooks); SIGKILL only after the grace period.
   */
  async stop(graceMs: number): Promise<AppExit> {
    this.stopping = true;
    const child = this.child;
    if (!child) return this.exited;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.log(this.app.name, `did not exit within ${graceMs} ms, sending SIGKILL`);
        this.forced = true;
        child.kill('SIGKILL');
        resolve();
      }, graceMs);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(timer);
    return this.exited;
  }

  /** Fault tests: the process dies without any chance to clean up. */
  kill(): Promise<AppExit> {
    this.stopping = true;
    this.child?.kill('SIGKILL');
    return this.exited;
  }
}
