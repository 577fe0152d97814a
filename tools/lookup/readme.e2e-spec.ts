import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePortRange, tempDir } from '@lookup/shared/testing';
import { readmeBlocks, readmeScript } from './readme-script';

const ROOT = resolve(__dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');

async function waitHealthy(url: string, proc: ChildProcess, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
    if (ok) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no /health 200 within ${timeoutMs} ms`);
}

/** `npm start` in the clone, in its own process group (npm -> lookup -> node), so all of it can be stopped. */
function npmStart(dir: string, port: number, log: string[], logLevel = 'warn'): ChildProcess {
  const child = spawn('npm', ['start', '--silent'], { cwd: dir, env: { ...process.env, PORT: String(port), LOG_LEVEL: logLevel }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  return child;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/**
 * The README's opening section on a clean clone, as a new user runs it: `git clone` of this
 * checkout (node_modules symlinked instead of `npm ci`, which needs the network), `npm start`
 * (cold: the first build), then every command of the README's first part with its answer
 * checked, then a warm restart. Writes the measured times to test-artifacts/readme-timings.txt.
 */
describe('README opening section on a clean clone', () => {
  const tmp = tempDir('lookup-readme-');
  const dir = join(tmp.path, 'clone');
  const log: string[] = [];
  let server: ChildProcess | undefined;

  afterAll(async () => {
    if (server) await stopGroup(server);
    tmp.remove();
  }, 60000);

  it('runs the two commands and every command of the first part, each answering as shown', async () => {
    execFileSync('git', ['clone', '-q', ROOT, dir]);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const blocks = readmeBlocks(readFileSync(join(dir, 'README.md'), 'utf8'));
    expect(blocks[0]).toEqual([expect.stringMatching(/^npm ci && npm start\b/), expect.stringMatching(/^npm test\b/)]);
    const port = await freePortRange(1);
    const url = `http://127.0.0.1:${port}`;

    // The first start at the default LOG_LEVEL, as a user sees it: the new key comes after the
    // sample's import lines, and Nest's line per module and route is not printed.
    server = npmStart(dir, port, log, 'info');
    const cold = await waitHealthy(url, server, 240000).catch((e: Error) => Promise.reject(new Error(`${e.message}\n${log.join('').slice(-3000)}`)));
    const firstStart = log.join('');
    const banner = firstStart.indexOf('A new API key was created');
    expect(banner).toBeGreaterThan(-1);
    expect(firstStart.slice(0, banner)).toContain('(bundled sample)');
    expect(firstStart.slice(banner)).not.toMatch(/\[(PlacesData|BusinessData)\]/);
    expect(firstStart).not.toMatch(/RouterExplorer|InstanceLoader/);

    const timings = join(tmp.path, 'timings.txt');
    const script = readmeScript(blocks.slice(1).flat(), port, timings);
    writeFileSync(join(tmp.path, 'readme.sh'), script);
    const run = spawnSync('bash', [join(tmp.path, 'readme.sh')], { cwd: dir, encoding: 'utf8', timeout: 180000 });
    expect({ status: run.status, output: run.stdout.slice(-2000) + run.stderr.slice(-2000) }).toMatchObject({ status: 0 });
    expect((await fetch(`${url}/docs/`)).status).toBe(200);

    await stopGroup(server);
    server = npmStart(dir, port, log);
    const warm = await waitHealthy(url, server, 60000);
    const help = Date.now();
    execFileSync('npx', ['lookup', 'keys', '--help'], { cwd: dir });
    const helpMs = Date.now() - help;

    mkdirSync(ARTIFACTS, { recursive: true });
    const report = [`npm start cold (clone: build + sample) to /health 200: ${cold} ms`, `npm start warm: ${warm} ms`, `npx lookup keys --help: ${helpMs} ms`, readFileSync(timings, 'utf8')].join('\n');
    writeFileSync(join(ARTIFACTS, 'readme-timings.txt'), report);
    console.log(report);
    expect(warm).toBeLessThan(cold);
  }, 600000);
});
