import { Socket } from 'node:net';

/**
 * The servers some tests need. Their addresses come from the same variables the apps read,
 * with the machine's defaults; probing happens once per run in the global setup.
 */
export type ServerName = 'postgres' | 'nats' | 'opensearch';

export interface ServerAddress {
  name: ServerName;
  url: string;
  host: string;
  port: number;
}

function hostPort(url: string, fallbackPort: number): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || fallbackPort) };
}

export function serverAddresses(env: NodeJS.ProcessEnv = process.env): ServerAddress[] {
  const pg = env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const nats = env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
  const os = env['TEST_OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200';
  return [
    { name: 'postgres', url: pg, ...hostPort(pg, 5432) },
    { name: 'nats', url: nats, ...hostPort(nats, 4222) },
    { name: 'opensearch', url: os, ...hostPort(os, 9200) },
  ];
}

export function serverUrl(name: ServerName): string {
  return serverAddresses().find((s) => s.name === name)!.url;
}

export function tcpReachable(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

/** OpenSearch is "up" only when the cluster answers, not when the port merely accepts. */
export async function openSearchReady(url: string, timeoutMs = 3000): Promise<boolean> {
  try {
    const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return false;
    const body = (await res.json()) as { status?: string };
    return body.status === 'green' || body.status === 'yellow';
  } catch {
    return false;
  }
}

export const AVAILABLE_ENV = 'LOOKUP_TEST_SERVERS';
export const MISSING_ENV = 'LOOKUP_TEST_SERVERS_MISSING';
