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
  ) {}

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
