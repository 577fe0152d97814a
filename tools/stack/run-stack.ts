import { resolve } from 'node:path';
import { startStack } from './stack';

/**
 * `npm run stack`: the distributed profile without containers. Reads the same variables as
 * the apps (NATS_URL, DATABASE_URL, OPENSEARCH_URL, SEED_API_KEY, ...) plus:
 *   STACK_PORT      gateway port (3000); services use the next ports (probes and /metrics)
 *   STACK_SERVICES  comma-separated subset of places,business,intl,utils,indexer
 * Ctrl-C / SIGTERM stops the gateway first, then the services, each gracefully.
 */
async function main(): Promise<void> {
  const env = process.env;
  const root = resolve(__dirname, '..', '..', '..');
  const basePort = Number(env['STACK_PORT'] ?? 3000);
  if (!Number.isInteger(basePort) || basePort < 1 || basePort > 65530) throw new Error(`STACK_PORT=${env['STACK_PORT']}: a port number is expected`);
  const services = env['STACK_SERVICES']?.split(',').map((s) => s.trim()).filter(Boolean);
  let stopping = false;
  const stack = await startStack({
    root,
    basePort,
    env,
    services,
    onUnexpectedExit: (app, code) => {
      process.stderr.write(`[stack] ${app} exited (${code}); stopping the stack\n`);
      void shutdown(1);
    },
  });
  async function shutdown(code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    process.stdout.write('[stack] stopping (gateway first, then services)\n');
    const codes = await stack.stop();
    process.stdout.write(`[stack] stopped: ${JSON.stringify(codes)}\n`);
    process.exit(code);
  }
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(0));
  process.stdout.write(
    `[stack] ready: gateway ${stack.gatewayUrl} (metrics ${stack.gatewayUrl}/metrics); ` +
      stack.apps.filter((a) => a.app.role === 'service').map((a) => `${a.app.name} :${a.app.port} pid ${a.pid}`).join(', ') + '\n',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`[stack] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
