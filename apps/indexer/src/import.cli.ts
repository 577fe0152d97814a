import 'reflect-metadata';
import { loadConfig } from '@lookup/shared/config';
import { ImportUsageError, runImport } from '@lookup/indexer';

runImport(process.argv.slice(2), loadConfig(process.env), (l) => console.log(l)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(err instanceof ImportUsageError ? 2 : 1);
});
