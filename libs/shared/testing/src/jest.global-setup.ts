import { AVAILABLE_ENV, MISSING_ENV, openSearchReady, serverAddresses, tcpReachable } from './servers';

/**
 * Probes the servers once. Without REQUIRE_SERVERS, tests that need a missing server skip
 * with a printed reason; with it (CI), a missing server fails the run before any test.
 */
export default async function globalSetup(): Promise<void> {
  const available: string[] = [];
  const missing: string[] = [];
  for (const s of serverAddresses()) {
    const ok = s.name === 'opensearch' ? await openSearchReady(s.url) : await tcpReachable(s.host, s.port);
    if (ok) available.push(s.name);
    else missing.push(`${s.name} at ${s.host}:${s.port}`);
  }
  process.env[AVAILABLE_ENV] = available.join(',');
  process.env[MISSING_ENV] = missing.join('; ');
  if (missing.length === 0) return;
  if (process.env['REQUIRE_SERVERS'] === '1') {
    throw new Error(`REQUIRE_SERVERS=1 but these servers are not reachable: ${missing.join('; ')}`);
  }
  process.stdout.write(
    `\n[lookup tests] not reachable: ${missing.join('; ')}. Tests that need them are skipped ` +
      `(start them with \`npm run servers:up\`).\n`,
  );
}
