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

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(err instanceof ImportUsageError || err instanceof ConfigError ? 2 : 1);
  },
);
