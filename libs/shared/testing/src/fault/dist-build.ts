import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'fixtures' || e.name === 'target') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts') && !/\.(e2e-|int-)?spec\.ts$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Tests of the process stack run the compiled apps, like production. Rebuilds (`tsc -p
 * tsconfig.build.json`, serialised with flock against concurrent runs) when a source is newer
 * than the oldest of the given outputs. Type errors elsewhere do not stop tsc from emitting.
 */
export function ensureBuilt(root: string, outputs: string[]): void {
  const outs = outputs.map((o) => join(root, o));
  const oldest = Math.min(...outs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : 0)));
  const newest = Math.max(...['apps', 'libs', 'tools'].map((d) => newestSource(join(root, d))));
  if (oldest > 0 && oldest >= newest) return;
  try {
    execFileSync('flock', ['/tmp/lookup-build.lock', process.execPath, join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'pipe',
      timeout: 240000,
    });
  } catch (err) {
    // tsc exits 2 on type errors but still emits; only a missing output is fatal.
    const missing = outs.filter((o) => !existsSync(o));
    if (missing.length) throw new Error(`build did not produce ${missing.join(', ')}: ${(err as Error).message}`);
  }
}
