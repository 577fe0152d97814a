import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { projectRoot } from '@lookup/shared/config';
import { describeWith, postgresUrlFor, serverUrl, uniqueName } from '@lookup/shared/testing';

const ROOT = projectRoot();

/** A CLI as `npx lookup keys|projects ...` runs it, from its sources, in the distributed profile. */
function cli(entry: string, args: string[], env: Record<string, string>) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['-r', join(ROOT, 'tools/ts-register.js'), join(ROOT, entry), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, PROFILE: 'distributed', DATABASE_SCHEMA: '', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.trim(), ms: Date.now() - t0 };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function dropDatabase(name: string): Promise<void> {
  const c = new Client({ connectionString: serverUrl('postgres'), connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}"`);
  } finally {
    await c.end();
  }
}

// The README's distributed walkthrough ran `lookup keys create` without the DATABASE_URL the
// migrate step was given: the CLI retried for ~27 s (Nest's 9 attempts), printed Nest's log, and
// the walkthrough's KEY=$(...) was empty.
describeWith(['postgres'], 'keys and projects CLIs (distributed) when PostgreSQL is not as configured', () => {
  const db = uniqueName('keyscli');
  afterAll(() => dropDatabase(db));

  it('a database that does not exist: one line naming it and the command that creates it, at once; that command works', () => {
    const url = postgresUrlFor(db);
    const keys = cli('apps/gateway/src/keys.cli.ts', ['list'], { DATABASE_URL: url });
    expect(keys.status).toBe(1);
    expect(keys.stderr.split('\n')).toEqual([
      `database "${db}" does not exist on ${new URL(url).host} (DATABASE_URL=${url}): set DATABASE_URL to the database the gateway uses, or run \`PROFILE=distributed DATABASE_URL=${url} npx lookup migrate\` (it creates them)`,
    ]);
    // Not after Nest's nine connection retries, 3 s apart.
    expect(keys.ms).toBeLessThan(20000);
    const projects = cli('apps/intl/src/projects.cli.ts', ['list'], { DATABASE_URL: url });
    expect(projects.status).toBe(1);
    expect(projects.stderr).toBe(keys.stderr);

    // What the line says to run, then the same commands succeed.
    const migrate = cli('apps/gateway/src/migrate.ts', [], { DATABASE_URL: url });
    expect(migrate.status).toBe(0);
    const created = cli('apps/gateway/src/keys.cli.ts', ['create', '--name', 'me'], { DATABASE_URL: url });
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^id \d+ {2}key \S+/m);
    expect(cli('apps/gateway/src/keys.cli.ts', ['list'], { DATABASE_URL: url }).stdout).toMatch(/\bme\b/);
  });

  it('a server that does not answer: one line naming the address and how to start it', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/lookup`;
    const keys = cli('apps/gateway/src/keys.cli.ts', ['list'], { DATABASE_URL: url });
    expect(keys.status).toBe(1);
    expect(keys.stderr.split('\n')).toHaveLength(1);
    expect(keys.stderr).toMatch(new RegExp(`^cannot reach PostgreSQL at ${new URL(url).host.replace(/\./g, '\\.')} .*ECONNREFUSED.*npm run servers:up`));
    expect(keys.ms).toBeLessThan(20000);
    // A mistyped command is said first, database or not, with the usage exit code.
    const typo = cli('apps/gateway/src/keys.cli.ts', ['lsit'], { DATABASE_URL: url });
    expect(typo.status).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe('unknown keys command "lsit" (did you mean "list"?); commands: create, list, revoke, limits, restrict, usage');
  });
});
