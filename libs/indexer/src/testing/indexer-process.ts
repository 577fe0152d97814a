import { ChildProcess, spawn } from 'node:child_process';
import { projectRoot } from '@lookup/shared/config';

/** The built indexer app (`dist/apps/indexer/src/main.js`) in a process of its own; its log lines go to `output`. */
export function spawnIndexer(env: Record<string, string>, output: string[]): ChildProcess {
  const child = spawn(process.execPath, ['-r', './tools/paths.js', 'dist/apps/indexer/src/main.js'], {
    cwd: projectRoot(),
    env: { ...process.env, PROFILE: 'distributed', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => output.push(...b.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

/** Stops it and waits for its exit (SIGKILL: a test's indexer has nothing to finish). */
export async function stopIndexer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
}
