import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tcpReachable } from '../servers';
import { waitFor } from './process-wait';

export const NATS_SERVER_BIN = '/usr/sbin/nats-server';

/** Membership of a NATS cluster: this node's route port and every node's (a full mesh). */
export interface NatsClusterRoutes {
  name: string;
  clusterPort: number;
  routePorts: number[];
}

/**
 * A nats-server of the test's own (JetStream on, store in `storeDir`), so a fault test can stop
 * and restart it without touching the shared one. With `cluster`, one node of a cluster (see
 * `natsCluster`).
 */
export class NatsServerProcess {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly storeDir: string,
    private readonly cluster?: NatsClusterRoutes,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const args = ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir];
    if (this.cluster) {
      const c = this.cluster;
      args.push('--name', `${c.name}-${this.port}`, '--cluster_name', c.name, '--cluster', `nats://127.0.0.1:${c.clusterPort}`);
      args.push('--routes', c.routePorts.map((p) => `nats://127.0.0.1:${p}`).join(','));
    }
    const child = spawn(NATS_SERVER_BIN, args, { stdio: 'ignore' });
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

/**
 * `size` nodes of one NATS cluster on ports from `basePort` (clients `basePort + i`, routes
 * `basePort + size + i`), each with a store dir under `dir`. `url` lists every node.
 */
export function natsCluster(basePort: number, dir: string, size = 3, name = 'lookup-test'): { nodes: NatsServerProcess[]; url: string } {
  const routePorts = Array.from({ length: size }, (_, i) => basePort + size + i);
  const nodes = Array.from({ length: size }, (_, i) => {
    const store = join(dir, `node-${i}`);
    mkdirSync(store, { recursive: true });
    return new NatsServerProcess(basePort + i, store, { name, clusterPort: routePorts[i], routePorts });
  });
  return { nodes, url: nodes.map((n) => n.url).join(',') };
}
