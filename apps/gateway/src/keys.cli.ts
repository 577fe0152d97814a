import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@lookup/shared/config';
import { ApiKeyRepository, ApiKeyService, KeysModule, runKeysCommand, UsageError } from '@lookup/gateway';

/** `npm run keys -- create --name shop`: against the profile's store (PROFILE, DATABASE_URL, DATA_DIR). */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ctx = await NestFactory.createApplicationContext(KeysModule.forRoot(config), { logger: ['error'] });
  try {
    await runKeysCommand(process.argv.slice(2), ctx.get(ApiKeyService), ctx.get(ApiKeyRepository), { out: (l) => console.log(l) });
  } finally {
    await ctx.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof UsageError ? err.message : err instanceof Error ? err.message : err);
  process.exit(err instanceof UsageError ? 2 : 1);
});
