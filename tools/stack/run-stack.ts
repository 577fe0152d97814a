import { resolve } from 'node:path';
import { RunningStack, StackStartError, startStack } from './stack';

/**
 * `lookup stack` / `npm run stack`: the distributed profile without containers. Reads the same
 * variables as the apps (NATS_URL, DATABASE_URL, DATABASE_SCHEMA, OPENSEARCH_URL, SEED_API_KEY, ...) plus:
 *   STACK_PORT      gateway port (3000); services use the next ports (probes and /metrics)
 *   STACK_SERVICES  comma-separated subset of places,business,intl,utils,indexer
 * Migrations first, then the services, then the gateway. Ctrl-C / SIGTERM stops the gateway
 * first, then the services; an app that fails (at start or later) stops all of them, and its
 * last log lines are printed. Exit code: 0 after Ctrl-C, 1 after a failure.
 */
const out = (l: string) => process.stdout.write(`[stack] ${l}\n`);
const err = (l: string) => process.stderr.write(`[stack] ${l}\n`);

/** Writes to a pipe are asynchronous: exit only after they left, or the last lines are lost. */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

function printLastLines(app: string, lines: readonly string[]): void {
  if (!lines.length) return;
  err(`last ${lines.length} log lines of ${app}:`);
  for (const l of lines) process.stderr.write(`  ${l}\n`);
}

async function main(): Promise<void> {
  const env = process.env;
  const root = resolve(__dirname, '..', '..', '..');
  const basePort = Number(env['STACK_PORT'] ?? 3000);
  if (!Number.isInteger(basePort) || basePort < 1 || basePort > 65530) throw new Error(`STACK_PORT=${env['STACK_PORT']}: a port number is expected`);
  const services = env['STACK_SERVICES']?.split(',').map((s) => s.trim()).filter(Boolean);

  let stack: RunningStack | undefined;
  let stopping: Promise<void> | undefined;
  // Before the stack is up, startStack itself stops what it started and rejects; after, we do.
  const shutdown = (code: number, failed?: string): Promise<void> =>
    (stopping ??= (async () => {
      if (failed) printLastLines(failed, stack?.app(failed).lastLines() ?? []);
      out('stopping (gateway first, then services)');
      const codes = stack ? await stack.stop() : {};
      out(`stopped: ${JSON.stringify(codes)}`);
      exitAfterFlush(code);
    })());
  const starting = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stack) void shutdown(0);
      else starting.abort();
    });
  }
  // A runner killed outright must not leave the apps (their own process groups) behind.
  process.on('exit', () => {
    for (const a of stack?.apps ?? []) if (a.running && a.pid) process.kill(a.pid, 'SIGKILL');
  });

  try {
    stack = await startStack({
      root,
      basePort,
      env,
      services,
      signal: starting.signal,
      onUnexpectedExit: (app, code) => {
        err(`${app} exited (${code}); stopping the stack`);
        void shutdown(1, app);
      },
    });
  } catch (e) {
    if (starting.signal.aborted) {
      out('interrupted while starting; everything started was stopped');
      return exitAfterFlush(0);
    }
    if (e instanceof StackStartError) {
      err(`${e.app} failed: ${e.message}; everything started was stopped`);
      printLastLines(e.app, e.lastLines);
      return exitAfterFlush(1);
    }
    throw e;
  }
  out(
    `ready: gateway ${stack.gatewayUrl} (metrics ${stack.gatewayUrl}/metrics); ` + stack.apps.map((a) => `${a.app.name} :${a.app.port} pid ${a.pid}`).join(', '),
  );
}

main().catch((e: unknown) => {
  err(e instanceof Error ? e.message : String(e));
  exitAfterFlush(1);
});
