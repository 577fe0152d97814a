import { AppExit, AppProcess, LogSink } from './stack.process';
import { appEnv, planStack } from './stack.apps';

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
  /** Called when an app dies on its own (not during stop). */
  onUnexpectedExit?: (app: string, code: number | null) => void;
}

export interface RunningStack {
  gatewayUrl: string;
  apps: AppProcess[];
  app(name: string): AppProcess;
  /** Gateway first (no new requests reach the services), then the services; resolves with each exit code. */
  stop(): Promise<Record<string, AppExit>>;
}

const defaultLog: LogSink = (app, line) => process.stdout.write(`[${app}] ${line}\n`);

/**
 * The distributed profile on one machine: every app its own Node process, the same entry
 * points the containers run. Services start together and must be ready before the gateway.
 */
export async function startStack(o: StackOptions): Promise<RunningStack> {
  const plan = planStack(o.root, o.basePort, o.services);
  const log = o.log ?? defaultLog;
  const procs = plan.map((a) => new AppProcess(a, o.root, appEnv(o.env, a), log));
  const readyTimeout = o.readyTimeoutMs ?? 90000;
  const graceMs = o.graceMs ?? 15000;
  for (const p of procs) if (o.onUnexpectedExit) p.onUnexpectedExit = o.onUnexpectedExit;

  const stop = async (): Promise<Record<string, AppExit>> => {
    const codes: Record<string, AppExit> = {};
    const gateway = procs.filter((p) => p.app.role === 'gateway');
    const services = procs.filter((p) => p.app.role === 'service');
    for (const group of [gateway, services]) {
      await Promise.all(group.map(async (p) => (codes[p.app.name] = await p.stop(graceMs))));
    }
    return codes;
  };

  try {
    const services = procs.filter((p) => p.app.role === 'service');
    for (const p of services) p.start();
    await Promise.all(services.map((p) => p.waitReady(readyTimeout)));
    const gateway = procs.find((p) => p.app.role === 'gateway')!;
    gateway.start();
    await gateway.waitReady(readyTimeout);
  } catch (err) {
    await stop();
    throw err;
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
