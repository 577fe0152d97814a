import { Writable } from 'node:stream';
import { LoggerService } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { createStandaloneApp } from '../standalone';

/** A standalone app on port 0 whose every log line (pino and Nest) the test can read. */
export interface CompatApp {
  app: NestFastifyApplication;
  base: string;
  port: number;
  key: string;
  logs: string[];
  close(): Promise<void>;
}

export async function startCompatApp(key: string, overrides: Partial<Record<keyof AppConfig, unknown>> = {}): Promise<CompatApp> {
  const dir = tempDir();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(...chunk.toString('utf8').split('\n').filter((l) => l));
      cb();
    },
  });
  const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'info', SEED_API_KEY: key, DEMO_PAGE: false, SEARCH_THREADS: 0, ...overrides });
  const app = await createStandaloneApp(config, { logStream });
  const nestLogs: LoggerService = {
    log: (m: unknown) => logs.push(`nest ${String(m)}`),
    error: (m: unknown, t?: unknown) => logs.push(`nest ${String(m)} ${String(t ?? '')}`),
    warn: (m: unknown) => logs.push(`nest ${String(m)}`),
  };
  app.useLogger(nestLogs);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    port,
    key,
    logs,
    close: async () => {
      await app.close();
      dir.remove();
    },
  };
}

/** The compat error shape, exactly: `{"error":{"type","code","message","param"}}`. */
export function isCompatError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const keys = Object.keys(body);
  const e = (body as { error?: Record<string, unknown> }).error;
  if (keys.length !== 1 || typeof e !== 'object' || e === null) return false;
  return (
    typeof e['type'] === 'string' &&
    e['code'] === e['type'] &&
    typeof e['message'] === 'string' &&
    (e['param'] === null || typeof e['param'] === 'string') &&
    Object.keys(e).sort().join() === 'code,message,param,type'
  );
}

export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
