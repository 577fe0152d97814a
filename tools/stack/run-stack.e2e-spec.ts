import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import { datasetSubjects } from '@lookup/indexer';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, ensureBuilt, freePortRange, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { readmeScript, readmeSectionBlocks } from '../lookup/readme-script';
import { SERVICE_APPS } from './stack.apps';

const ROOT = resolve(__dirname, '..', '..');

interface Runner {
  child: ChildProcess;
  out: { text: string };
  err: { text: string };
  exited: Promise<number | null>;
}

/** `lookup stack` as a user runs it: the built runner as its own process, output collected. */
function runStack(env: Record<string, string>): Runner {
  const child = spawn(process.execPath, ['dist/tools/stack/run-stack.js'], { cwd: ROOT, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { text: '' };
  const err = { text: '' };
  child.stdout!.on('data', (d: Buffer) => (out.text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err.text += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out, err, exited };
}

async function waitFor(r: Runner, what: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = `${r.out.text}\n${r.err.text}`.split('\n').find((l) => what.test(l));
    if (line) return line;
    if (r.child.exitCode !== null) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`no line matching ${what} in time; output:\n${r.out.text.slice(-3000)}\n${r.err.text.slice(-3000)}`);
}

/** The pids the runner's ready line names (`places :4001 pid 123, ...`). */
const pidsOf = (ready: string) => [...ready.matchAll(/(\w+) :\d+ pid (\d+)/g)].map((m) => ({ app: m[1], pid: Number(m[2]) }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The runner from nothing: a DATABASE_SCHEMA, a JetStream stream (subject prefix) and an index
 * prefix that do not exist yet. It must create what it needs, start in order, and leave no
 * process behind after Ctrl-C or after one app fails.
 */
describeWith(['postgres', 'nats', 'opensearch'], 'lookup stack (run-stack) from a fresh schema, stream and index', () => {
  const schema = uniqueName('stackrun');
  const prefix = uniqueName('stackrun');
  const runners: Runner[] = [];
  const env = async (extra: Record<string, string> = {}) => ({
    STACK_PORT: String(await freePortRange(SERVICE_APPS.length + 1)),
    DATABASE_URL: serverUrl('postgres'),
    DATABASE_SCHEMA: schema,
    NATS_URL: serverUrl('nats'),
    NATS_SUBJECT_PREFIX: prefix,
    OPENSEARCH_URL: serverUrl('opensearch'),
    INDEX_PREFIX: prefix,
    ...extra,
  });

  beforeAll(() => ensureBuilt(ROOT, ['dist/tools/stack/run-stack.js', 'dist/apps/gateway/src/migrate.js', 'dist/apps/gateway/src/main.js', 'dist/apps/places/src/main.js']));

  afterAll(async () => {
    for (const r of runners) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    const pg = new Client({ connectionString: serverUrl('postgres') });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
    const nc = await connect({ servers: serverUrl('nats'), timeout: 5000 });
    await (await nc.jetstreamManager({ timeout: 5000 })).streams.delete(datasetSubjects(prefix).stream).catch(() => undefined);
    await nc.close();
    const os = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
    await os.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await os.close();
  }, 60000);

  it("creates the schema, starts every app ready, answers the README's first steps (a key, the sample's Slovak files through the indexer, a search, the status), and after SIGINT (Ctrl-C) no app process remains", async () => {
    const e = await env({ LOG_LEVEL: 'warn' });
    const r = runStack(e);
    runners.push(r);
    const ready = await waitFor(r, /\[stack\] ready:/, 120000);
    const pids = pidsOf(ready);
    expect(pids.map((p) => p.app).sort()).toEqual([...SERVICE_APPS, 'gateway'].sort());
    expect(r.out.text).toMatch(/\[migrate\] gateway \(keys, quotas\): /);
    const health = await fetch(`http://127.0.0.1:${e.STACK_PORT}/health/ready`, { signal: AbortSignal.timeout(10000) });
    expect(health.status).toBe(200);
    // What did not exist before: the schema (with the migrated tables) and the indexer's JetStream stream.
    const pg = new Client({ connectionString: serverUrl('postgres') });
    await pg.connect();
    const tables = await pg.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    await pg.end();
    expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(expect.arrayContaining(['api_keys', 'migrations_gateway', 'migrations_intl']));
    const nc = await connect({ servers: serverUrl('nats'), timeout: 5000 });
    const stream = await (await nc.jetstreamManager({ timeout: 5000 })).streams.info(datasetSubjects(prefix).stream);
    await nc.close();
    expect(stream.config.name).toBe(datasetSubjects(prefix).stream);
    // The README's block after `npx lookup stack`, literally, against this stack (one stack for both: each costs the machine a dozen seconds of both cores).
    const blocks = readmeSectionBlocks(readFileSync(resolve(ROOT, 'README.md'), 'utf8'), 'Running the distributed stack');
    const steps = blocks.find((b) => b.some((l) => l.includes('lookup keys create')));
    expect(steps).toBeDefined();
    const tmp = tempDir('stack-readme-');
    try {
      // The answer of the search comes from the indexer's import of what the command before published: up to 60 s.
      const script = readmeScript(steps!, Number(e.STACK_PORT), `${tmp.path}/timings.txt`, 60);
      writeFileSync(`${tmp.path}/steps.sh`, script);
      const run = spawnSync('bash', [`${tmp.path}/steps.sh`], { cwd: ROOT, encoding: 'utf8', timeout: 240000, env: { ...process.env, ...e } });
      expect({ status: run.status, output: run.stdout.slice(-2000) + run.stderr.slice(-2000) }).toMatchObject({ status: 0 });
    } finally {
      tmp.remove();
    }
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(pids.filter((p) => alive(p.pid))).toEqual([]);
  }, 420000);

  it('stops every app when one of them dies, printing that app\'s last log lines, and exits 1', async () => {
    const e = await env({ LOG_LEVEL: 'info', STACK_SERVICES: 'places,utils' });
    const r = runStack(e);
    runners.push(r);
    const pids = pidsOf(await waitFor(r, /\[stack\] ready:/, 120000));
    expect(pids.map((p) => p.app).sort()).toEqual(['gateway', 'places', 'utils']);
    process.kill(pids.find((p) => p.app === 'places')!.pid, 'SIGKILL');
    expect(await r.exited).toBe(1);
    const err = r.err.text;
    expect(err).toMatch(/\[stack\] places exited/);
    expect(err).toMatch(/last \d+ log lines of places:\n( {2}.*\n)* {2}.*places service on NATS/);
    expect(pids.filter((p) => alive(p.pid))).toEqual([]);
  }, 180000);

});
