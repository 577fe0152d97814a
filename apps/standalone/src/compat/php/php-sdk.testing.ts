import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '@lookup/shared/config';
import { SHARED_DATA_DIR } from '@lookup/shared/testing';

/** One SDK call: the static method as users write it, its arguments, and the key to use. */
export interface PhpCall {
  call: string;
  args: unknown[];
  key: string;
}

export interface PhpResult {
  ok: boolean;
  status?: number | null;
  class?: string;
  value?: unknown;
  exception?: string;
  code?: string | null;
  param?: string | null;
  message?: string;
}

export const SDK_DIR = resolve(SHARED_DATA_DIR, '..', 'clients', 'swiftyper-php');
const RUNNER = join(projectRoot(), 'apps/standalone/src/compat/php/sdk-runner.php');

/** Why the PHP SDK tests cannot run here, or null when php, its curl/mbstring extensions and composer are all present. */
export function phpMissing(): string | null {
  const php = spawnSync('php', ['-r', 'echo extension_loaded("curl") && extension_loaded("mbstring") ? "ok" : "ext";'], { encoding: 'utf8' });
  if (php.error || php.status !== 0) return 'php is not installed (Debian: php-cli php-curl php-mbstring)';
  if (php.stdout.trim() !== 'ok') return 'php lacks the curl or mbstring extension (Debian: php-curl php-mbstring)';
  const composer = spawnSync('composer', ['--version'], { encoding: 'utf8' });
  if (composer.error || composer.status !== 0) return 'composer is not installed (Debian: composer)';
  return null;
}

/**
 * A scratch copy of the SDK with a Composer autoloader (its own init.php fails on Linux, see
 * ../shared/clients/README.md). Lives in `dir`, a temp dir: never in the repository.
 */
export function prepareSdk(dir: string): string {
  const copy = join(dir, 'swiftyper-php');
  cpSync(SDK_DIR, copy, { recursive: true });
  execFileSync('composer', ['dump-autoload', '--no-interaction', '--quiet'], { cwd: copy, env: { ...process.env, COMPOSER_HOME: join(dir, 'composer-home') }, timeout: 60000 });
  return join(copy, 'vendor', 'autoload.php');
}

/**
 * Runs the calls in one php process (the SDK's own curl client) and returns each outcome.
 * Asynchronous: the server under test runs in this same event loop.
 */
export async function runPhp(autoload: string, base: string, calls: PhpCall[], dir: string): Promise<PhpResult[]> {
  const file = join(dir, `calls-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(calls));
  const { stdout } = await promisify(execFile)('php', [RUNNER, autoload, base, file], { encoding: 'utf8', timeout: 30000 });
  return JSON.parse(stdout) as PhpResult[];
}
