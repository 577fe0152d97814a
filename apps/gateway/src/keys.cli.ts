import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { explainDatabaseError } from '@lookup/shared/database';
import { ApiKeyRepository, ApiKeyService, KeysModule, parseKeysArgs, runKeysCommand, UsageError } from '@lookup/gateway';

let config: AppConfig | undefined;

/** `npm run keys -- create --name shop`: against the profile's store (PROFILE, DATABASE_URL, DATA_DIR). */
async function main(): Promise<void> {
  // A mistyped command is a usage error whether or not the database is there.
  parseKeysArgs(process.argv.slice(2));
  config = loadConfig(process.env);
  // No retries and no Nest log: a database that is not there or not reachable is one line (below), at once.
  const ctx = await NestFactory.createApplicationContext(KeysModule.forRoot(config, { retryAttempts: 0 }), { logger: false, abortOnError: false });
  try {
    await runKeysCommand(process.argv.slice(2), ctx.get(ApiKeyService), ctx.get(ApiKeyRepository), { out: (l) => console.log(l) });
  } finally {
    await ctx.close();
  }
}

main().catch((err: unknown) => {
  const db = config?.PROFILE === 'distributed' ? explainDatabaseError(err, config) : null;
  console.error(db ?? (err instanceof Error ? err.message : err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
