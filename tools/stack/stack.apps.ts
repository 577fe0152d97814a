import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** One app of the distributed stack as a process: its entry point and probe/HTTP port. */
export interface StackApp {
  name: string;
  main: string;
  port: number;
  /** The gateway starts last: its readiness pings the services. */
  role: 'service' | 'gateway';
  /** Node options before the entry point (the indexer's heap cap). */
  nodeArgs: string[];
}

/**
 * The indexer's heap as in k8s (`k8s/indexer.yaml`): without a cap V8 lets an import's garbage
 * grow to ~900 MB; at 320 MB the whole Czech register imports at about 400 MB RSS.
 */
export const NODE_ARGS: Record<string, string[]> = { indexer: ['--max-old-space-size=320'] };

/** Service apps in start order; the gateway is added after them. Absent builds are skipped. */
export const SERVICE_APPS = ['places', 'business', 'intl', 'utils', 'indexer'] as const;
export const GATEWAY_APP = 'gateway';

export function mainOf(root: string, app: string): string {
  return join(root, 'dist', 'apps', app, 'src', 'main.js');
}

/**
 * The apps to run: every built service app on `basePort + 1 + i` (probe and metrics port), then
 * the gateway on `basePort`. `only` restricts the services (e.g. for a smaller test stack).
 */
export function planStack(root: string, basePort: number, only?: readonly string[], exists: (p: string) => boolean = existsSync): StackApp[] {
  const services = SERVICE_APPS.filter((s) => !only || only.includes(s));
  const apps: StackApp[] = [];
  services.forEach((name, i) => {
    const main = mainOf(root, name);
    if (exists(main)) apps.push({ name, main, port: basePort + 1 + i, role: 'service', nodeArgs: NODE_ARGS[name] ?? [] });
  });
  const gw = mainOf(root, GATEWAY_APP);
  if (!exists(gw)) throw new Error(`${gw} is missing: run \`npm run build\` first`);
  apps.push({ name: GATEWAY_APP, main: gw, port: basePort, role: 'gateway', nodeArgs: [] });
  return apps;
}

/** The environment of one app: the caller's, the distributed profile and its own port. */
export function appEnv(base: NodeJS.ProcessEnv, app: StackApp, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Loopback unless told otherwise: a developer's stack is not a public server.
  return { HOST: '127.0.0.1', ...base, ...extra, PROFILE: 'distributed', PORT: String(app.port) };
}
