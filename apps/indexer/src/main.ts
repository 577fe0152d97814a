import 'reflect-metadata';
import { loadConfig } from '@lookup/shared/config';
import { runMain } from '@lookup/shared/runtime';
import { indexerSettings, startIndexer } from '@lookup/indexer';

/**
 * The indexer app: consumes `datasets.updated` events and re-indexes each dataset into a new
 * version, switched atomically (see libs/indexer/src/pipeline). SIGTERM/SIGINT stop pulling and
 * let the current run finish (up to DATASET_DRAIN_MS); an unfinished run stays unacked and is
 * redelivered to the next indexer.
 */
runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: process.env['PROFILE'] ?? 'distributed' });
  const indexer = await startIndexer(config, indexerSettings(process.env));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void indexer.close().then(() => process.exit(0));
    });
  }
});
