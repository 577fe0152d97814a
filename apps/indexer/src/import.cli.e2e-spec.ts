import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '@lookup/shared/config';
import { freePortRange } from '@lookup/shared/testing';

const ROOT = projectRoot();

/** `npx lookup import ...` as it runs, from its sources, in the distributed profile. */
function importCli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['-r', join(ROOT, 'tools/ts-register.js'), join(ROOT, 'apps/indexer/src/import.cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, PROFILE: 'distributed', ...env },
  });
  return { status: r.status, stderr: r.stderr.trim() };
}

/** A loopback port nothing listens on (claimed against other test processes, outside the ephemeral range). */
const closedPort = () => freePortRange(1);

/** A server of the configuration that does not answer is named with its setting, as `keys` names DATABASE_URL (no server needed: none answers). */
describe('import CLI: a server it cannot reach', () => {
  it('names OPENSEARCH_URL for `import status`, and NATS_URL for a publish, in one line', async () => {
    const os = `http://127.0.0.1:${await closedPort()}`;
    const status = importCli(['status'], { OPENSEARCH_URL: os });
    expect(status.status).toBe(1);
    expect(status.stderr.split('\n')).toHaveLength(1);
    expect(status.stderr).toMatch(new RegExp(`^cannot reach OpenSearch at ${new URL(os).host.replace(/\./g, '\\.')} \\(OPENSEARCH_URL=${os}\\): .*ECONNREFUSED.*; start it \\(npm run servers:up\\) or set OPENSEARCH_URL$`));

    const nats = `nats://127.0.0.1:${await closedPort()}`;
    // Its own index prefix: nothing of it exists, and nothing is published.
    const publish = importCli(['catalogue', 'CZ', join(ROOT, 'libs/places/src/fixtures/cz/psc-list.csv')], { NATS_URL: nats, INDEX_PREFIX: 'cli-unreachable-spec' });
    expect(publish.status).toBe(1);
    expect(publish.stderr.split('\n').pop()).toMatch(new RegExp(`^cannot reach NATS at ${new URL(nats).host.replace(/\./g, '\\.')} \\(NATS_URL=${nats}\\): .*; start it \\(npm run servers:up\\) or set NATS_URL$`));
  });
});
