/**
 * The standalone server on the bundled sample, as the gateway benches run it: a fresh data dir
 * (the sample imported at start), keys and limits out of the way, listening on a free loopback
 * port and warmed up (search threads started, JIT) with 300 typed queries at concurrency 4.
 * SEARCH_THREADS and SEARCH_INLINE_BELOW_MS are taken from the environment. `close()` stops it and removes the data dir.
 */
import 'reflect-metadata';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '../libs/shared/config/src';
import { createStandaloneApp } from '../apps/standalone/src/standalone';
import { autocompleteQueries, KEY, threadSettings, viaClient } from './search-latency';

export interface SampleServer {
  app: NestFastifyApplication;
  port: number;
  /** The typed golden queries (CZ addresses) the benches send. */
  queries: string[];
  close(): Promise<void>;
}

/** `beforeListen` sees the app before it listens (hooks a bench adds to Fastify). */
/** `dataDir`: serve that (imported) data dir instead, left as it is at close. */
export async function startSampleServer(name: string, logLevel: string, beforeListen?: (app: NestFastifyApplication) => void, dataDir?: string): Promise<SampleServer> {
  const queries = autocompleteQueries(resolve('../shared/data/queries/cz-addresses.jsonl'));
  const dir = dataDir ? resolve(dataDir) : mkdtempSync(join(tmpdir(), `${name}-`));
  const config = loadConfig({}, {
    HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: logLevel, SEED_API_KEY: KEY, DEFAULT_MONTHLY_SEARCH_LIMIT: 100_000_000, RATE_LIMIT_PER_SECOND: 0,
    PROFILE: 'standalone', DATA_DIR: dir, SAMPLE_DATA: !dataDir, ...threadSettings(),
  });
  // The log written to /dev/null the way the app writes it to stdout (pino's default destination
  // writes each line synchronously): an fs WriteStream would send each line to libuv's thread
  // pool, whose wake-ups cost the main thread 25 µs a request at 32 clients here, for nothing a
  // deployment does.
  const devNull = openSync('/dev/null', 'w');
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(devNull, chunk);
      done();
    },
  });
  const app = await createStandaloneApp(config, { logStream });
  beforeListen?.(app);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  await viaClient(port, queries.slice(0, 300), 4, 'query');
  return {
    app,
    port,
    queries,
    close: async () => {
      await app.close();
      closeSync(devNull);
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
