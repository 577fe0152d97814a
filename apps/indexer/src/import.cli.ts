import 'reflect-metadata';
import { ConfigError, loadConfig } from '@lookup/shared/config';
import { ImportUsageError, isDatasetCommand, progressReporter, runDatasetImport, runImport } from '@lookup/indexer';

/** Exit codes: 0 done, 2 usage or invalid input (nothing was done), 1 the import failed. */
async function main(argv: string[]): Promise<void> {
  const config = loadConfig(process.env);
  const out = (l: string) => console.log(l);
  if (isDatasetCommand(argv)) await runDatasetImport(argv, config, { out, progress: process.stderr });
  else {
    // The catalogue command: documents written so far on stderr (a re-import carries every live address of the country, minutes on a whole register).
    const bar = progressReporter(process.stderr, { label: argv.slice(0, 2).join(' ') });
    const line = (l: string) => {
      bar.finish();
      out(l);
    };
    try {
      await runImport(argv, config, line, undefined, { onProgress: (p) => bar.update(p), onStep: (m) => bar.step(m) });
    } finally {
      bar.finish();
    }
  }
}

/** The host:port of each server URL setting, for naming the one a connection error points at. */
function serverSettings(env: Record<string, string | undefined>): Array<{ setting: string; url: string; hostPort: string }> {
  const out: Array<{ setting: string; url: string; hostPort: string }> = [];
  const defaults: Record<string, string> = { OPENSEARCH_URL: 'http://127.0.0.1:9200', NATS_URL: 'nats://127.0.0.1:4222' };
  for (const setting of ['OPENSEARCH_URL', 'NATS_URL']) {
    for (const url of (env[setting] || defaults[setting]!).split(',').map((u) => u.trim())) {
      try {
        const u = new URL(url);
        out.push({ setting, url, hostPort: `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : '4222')}` });
      } catch {
        // An unreadable URL was refused by the config check already.
      }
    }
  }
  return out;
}

/**
 * One line naming the setting when a server of the configuration cannot be reached (a connection
 * refused or unresolved at OPENSEARCH_URL's or NATS_URL's address), as `keys` does for
 * DATABASE_URL; null for any other error.
 */
function explainUnreachable(err: unknown): string | null {
  const texts: string[] = [];
  for (let e = err as { message?: string; code?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) texts.push(`${e.code ?? ''} ${e.message ?? ''}`);
  const text = texts.join(' ');
  if (!/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|CONNECTION_REFUSED/.test(text)) return null;
  const settings = serverSettings(process.env);
  // nats.js says CONNECTION_REFUSED without the address.
  const hit = /CONNECTION_REFUSED/.test(text) ? settings.find((s) => s.setting === 'NATS_URL') : settings.find((s) => text.includes(s.hostPort) || text.includes(`ENOTFOUND ${s.hostPort.slice(0, s.hostPort.lastIndexOf(':'))}`));
  if (!hit) return null;
  const server = hit.setting === 'NATS_URL' ? 'NATS' : 'OpenSearch';
  return `cannot reach ${server} at ${hit.hostPort} (${hit.setting}=${hit.url}): ${err instanceof Error ? err.message : String(err)}; start it (npm run servers:up) or set ${hit.setting}`;
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(explainUnreachable(err) ?? (err instanceof Error ? err.message : err));
    process.exit(err instanceof ImportUsageError || err instanceof ConfigError ? 2 : 1);
  },
);
