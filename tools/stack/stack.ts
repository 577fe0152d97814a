import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { AppExit, AppProcess, LogSink } from './stack.process';
import { appEnv, mainOf, planStack, StackApp } from './stack.apps';

export interface StackOptions {
  root: string;
  /** Gateway port; the services take the next ones. */
  basePort: number;
  /** Environment every app gets (NATS_URL, DATABASE_URL, OPENSEARCH_URL, prefixes, keys...). */
  env: NodeJS.ProcessEnv;
  /** Restrict the service apps started (default: every built one). */
  services?: readonly string[];
  readyTimeoutMs?: number;
  graceMs?: number;
  log?: LogSink;
  /** Aborted (Ctrl-C) while starting: stop what was started and reject. */
  signal?: AbortSignal;
  /** Called when an app dies on its own after the stack is up (not during stop). */
  onUnexpectedExit?: (app: string, code: number | null) => void;
}

export interface RunningStack {
  gatewayUrl: string;
  apps: AppProcess[];
  app(name: string): AppProcess;
  /** Gateway first (no new requests reach the services), then the services; resolves with each exit code. */
  stop(): Promise<Record<string, AppExit>>;
}

/** A failed start: which app failed and its last log lines; everything started was stopped. */
export class StackStartError extends Error {
  constructor(
    message: string,
    readonly app: string,
    readonly lastLines: readonly string[],
  ) {
    super(message);
  }
}

const defaultLog: LogSink = (app, line) => process.stdout.write(`[${app}] ${line}\n`);

/** Resolves when nothing listens on `port` at 127.0.0.1, else rejects naming the app that wanted it. */
function checkPortFree(app: StackApp): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', () => reject(new StackStartError(`port ${app.port} (${app.name}) is in use: set STACK_PORT to a free range of ports`, app.name, [])));
    srv.listen(app.port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

/**
 * The migrations (and the DATABASE_SCHEMA itself) before any app: the gateway and intl would
 * otherwise race on the same DDL, or retry forever against a schema that does not exist.
 */
async function runMigrations(root: string, env: NodeJS.ProcessEnv, log: LogSink): Promise<void> {
  const main = mainOf(root, 'gateway').replace(/main\.js$/, 'migrate.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const lines: string[] = [];
  const child = spawn(process.execPath, ['-r', './tools/paths.js', main], { cwd: root, env: { ...env, PROFILE: 'distributed' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    for (const l of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(l);
      log('migrate', l);
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new StackStartError(`the migrations failed (exit ${code})`, 'migrate', lines.slice(-30));
}

/**
 * The distributed profile on one machine: every app its own Node process, the same entry
 * points the containers run. In order: migrations, then the services (together), each ready,
 * then the gateway. Any failure on the way stops whatever was started.
 */
export async function startStack(o: StackOptions): Promise<RunningStack> {
  const plan = planStack(o.root, o.basePort, o.services);
  const log = o.log ?? defaultLog;
  const procs = plan.map((a) => new AppProcess(a, o.root, appEnv(o.env, a), log));
  const readyTimeout = o.readyTimeoutMs ?? 90000;
  const graceMs = o.graceMs ?? 15000;
  let up = false;
  let died: AppProcess | undefined;
  for (const p of procs) {
    p.onUnexpectedExit = (_, code) => {
      if (up) o.onUnexpectedExit?.(p.app.name, code);
      else died ??= p;
    };
  }

  const stop = async (): Promise<Record<string, AppExit>> => {
    const codes: Record<string, AppExit> = {};
    const gateway = procs.filter((p) => p.app.role === 'gateway');
    const services = procs.filter((p) => p.app.role === 'service');
    for (const group of [gateway, services]) {
      await Promise.all(group.map(async (p) => (codes[p.app.name] = await p.stop(graceMs))));
    }
    return codes;
  };
  const failure = (err: unknown): StackStartError => {
    if (err instanceof StackStartError) return err;
    // The app that died first is the cause; the others may only have been waiting on it.
    const culprit = died ?? procs.find((p) => (err as Error).message.startsWith(`${p.app.name} `));
    return new StackStartError((err as Error).message, culprit?.app.name ?? 'stack', culprit?.lastLines() ?? []);
  };

  // Stopping the apps makes every waitReady below throw at once.
  const onAbort = () => void stop();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (const a of plan) await checkPortFree(a);
    await runMigrations(o.root, o.env, log);
    const services = procs.filter((p) => p.app.role === 'service');
    for (const p of services) p.start();
    await Promise.all(services.map((p) => p.waitReady(readyTimeout)));
    const gateway = procs.find((p) => p.app.role === 'gateway')!;
    gateway.start();
    await gateway.waitReady(readyTimeout);
    up = true;
  } catch (err) {
    const e = o.signal?.aborted ? new StackStartError('interrupted while starting', 'stack', []) : failure(err);
    await stop();
    throw e;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
  return {
    gatewayUrl: `http://127.0.0.1:${o.basePort}`,
    apps: procs,
    app: (name) => {
      const p = procs.find((x) => x.app.name === name);
      if (!p) throw new Error(`no app ${name} in this stack`);
      return p;
    },
    stop,
  };
}
