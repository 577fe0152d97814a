import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * An OpenSearch node of the test's own, through scripts/opensearch.sh with its own ports and
 * data dir (its pid file lives there, so stop never touches the shared node).
 */
export class OpenSearchNode {
  readonly dataDir = mkdtempSync('/tmp/lookup-fault-os-');

  constructor(
    private readonly root: string,
    readonly httpPort: number,
    private readonly transportPort: number,
    private readonly heap = '-Xms256m -Xmx512m',
    /** A node of a cluster (see OpenSearchCluster) instead of a single node. */
    private readonly cluster?: { nodeName: string; seedHosts: string; initialManagers: string },
  ) {}

  get transportAddress(): string {
    return `127.0.0.1:${this.transportPort}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  private script(cmd: 'start' | 'stop'): Promise<unknown> {
    return run('bash', [join(this.root, 'scripts/opensearch.sh'), cmd], {
      cwd: this.root,
      timeout: 180000,
      env: {
        ...process.env,
        OPENSEARCH_HTTP_PORT: String(this.httpPort),
        OPENSEARCH_TRANSPORT_PORT: String(this.transportPort),
        OPENSEARCH_DATA_DIR: this.dataDir,
        OPENSEARCH_HEAP: this.heap,
        OPENSEARCH_START_TIMEOUT: '150',
        ...(this.cluster
          ? { OPENSEARCH_NODE_NAME: this.cluster.nodeName, OPENSEARCH_SEED_HOSTS: this.cluster.seedHosts, OPENSEARCH_INITIAL_MANAGERS: this.cluster.initialManagers }
          : {}),
      },
    });
  }

  async start(): Promise<void> {
    await this.script('start');
  }

  async stop(): Promise<void> {
    await this.script('stop');
  }

  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A cluster of the test's own on loopback: `size` nodes, all cluster-manager eligible and data
 * nodes (three keep a quorum with one stopped). `url` lists every node, as OPENSEARCH_URL does.
 */
export class OpenSearchCluster {
  readonly nodes: OpenSearchNode[];

  /** `basePort`: 2 x size free ports from there (HTTP and transport per node). */
  constructor(root: string, basePort: number, size = 3, heap = '-Xms256m -Xmx384m') {
    const names = Array.from({ length: size }, (_, i) => `test-node-${i}`);
    const seeds = names.map((_, i) => `127.0.0.1:${basePort + 2 * i + 1}`).join(',');
    this.nodes = names.map((nodeName, i) => new OpenSearchNode(root, basePort + 2 * i, basePort + 2 * i + 1, heap, { nodeName, seedHosts: seeds, initialManagers: names.join(',') }));
  }

  get url(): string {
    return this.nodes.map((n) => n.url).join(',');
  }

  async start(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.start()));
  }

  async remove(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.remove()));
  }
}
