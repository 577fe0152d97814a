import { AVAILABLE_ENV, ServerName } from './servers';

/**
 * `describe` for tests that need real servers. When one is missing the block is skipped and
 * the reason printed; under REQUIRE_SERVERS=1 the global setup has already failed the run.
 */
export function describeWith(servers: ServerName[], name: string, fn: () => void): void {
  const available = new Set((process.env[AVAILABLE_ENV] ?? '').split(',').filter(Boolean));
  const missing = servers.filter((s) => !available.has(s));
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  if (process.env['REQUIRE_SERVERS'] === '1') {
    describe(name, () => {
      it('has its servers', () => {
        throw new Error(`needs ${missing.join(', ')}, not reachable`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.log(`skipped "${name}": needs ${missing.join(', ')} (not reachable)`);
  describe.skip(name, fn);
}

/** Real data sets in ../shared/data are optional: skip with a notice when absent. */
export function describeWithData(paths: string[], name: string, fn: () => void): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { existsSync } = require('node:fs') as typeof import('node:fs');
  const absent = paths.filter((p) => !existsSync(p));
  if (absent.length === 0) {
    describe(name, fn);
    return;
  }
  // eslint-disable-next-line no-console
  console.log(`skipped "${name}": data not present (${absent.join(', ')})`);
  describe.skip(name, fn);
}
