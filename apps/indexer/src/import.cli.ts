import 'reflect-metadata';
import { ConfigError, loadConfig } from '@lookup/shared/config';
import { ImportUsageError, isDatasetCommand, runDatasetImport, runImport } from '@lookup/indexer';

/** Exit codes: 0 done, 2 usage or invalid input (nothing was done), 1 the import failed. */
async function main(argv: string[]): Promise<void> {
  const config = loadConfig(process.env);
  const out = (l: string) => console.log(l);
  if (isDatasetCommand(argv)) await runDatasetImport(argv, config, { out, progress: process.stderr });
  else await runImport(argv, config, out);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(err instanceof ImportUsageError || err instanceof ConfigError ? 2 : 1);
  },
);
