import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePortRange, tempDir } from '@lookup/shared/testing';

const ROOT = resolve(__dirname, '..', '..');

const healthy = (url: string) => fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * `kill <pid of npm start>`: npm dies without passing the signal on. The `lookup start` it ran
 * must then stop its server rather than keep the port (the next `npm start` failed with
 * EADDRINUSE). A parent process that is killed with SIGKILL plays npm here.
 */
describe('lookup start whose parent dies', () => {
  const data = tempDir('lookup-orphan-');
  afterAll(() => data.remove());

  it('stops the server when the process that started it is gone', async () => {
    const port = await freePortRange(1);
    const url = `http://127.0.0.1:${port}`;
    const env = { ...process.env, PORT: String(port), DATA_DIR: data.path, LOG_LEVEL: 'warn', SEED_API_KEY: 'k1', DEMO_PAGE: 'false' };
    // The stand-in for npm: starts `lookup start` and stays.
    const npm = spawn(process.execPath, ['-e', `require('node:child_process').spawn(process.execPath, [${JSON.stringify(join(ROOT, 'tools/lookup/lookup.js'))}, 'start'], { stdio: 'inherit' }); setInterval(() => {}, 1000);`], {
      cwd: ROOT,
      env,
      // A process group of its own (lookup and the server stay in it when re-parented), and no
      // pipes: a server left running must not keep this test process waiting on its output.
      stdio: 'ignore',
      detached: true,
    });
    try {
      expect(await until(() => healthy(url), 120000)).toBe(true);
      npm.kill('SIGKILL');
      expect(await until(async () => !(await healthy(url)), 15000)).toBe(true);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the whole group has exited
      }
    }
  }, 180000);
});
