import { join } from 'node:path';
import { NatsConnection } from 'nats';
import { AppConfig } from '@lookup/shared/config';
import { publishDatasetEvent } from '../datasets/dataset-stream';
import { DatasetScheduler, SchedulerOptions } from './dataset-scheduler';
import { loadScheduledSources } from './scheduler-sources';

/**
 * The indexer app's scheduler from the config, or null when SCHEDULER_ENABLED is off.
 * A bad SCHEDULER_SOURCES throws at start (SchedulerConfigError naming the entry and field).
 */
export function createDatasetScheduler(config: AppConfig, nc: NatsConnection, log: SchedulerOptions['log']): DatasetScheduler | null {
  if (!config.SCHEDULER_ENABLED) return null;
  return new DatasetScheduler({
    sources: loadScheduledSources(config.SCHEDULER_SOURCES),
    stateFile: config.SCHEDULER_STATE_FILE ?? join(config.DATA_DIR, 'scheduler-state.json'),
    downloadDir: config.DOWNLOAD_DIR ?? join(config.DATA_DIR, 'downloads'),
    intervalMs: config.SCHEDULER_INTERVAL_HOURS * 3.6e6,
    timeoutMs: config.DOWNLOAD_TIMEOUT_MS,
    maxBytes: config.DOWNLOAD_MAX_MB * 1024 * 1024,
    publish: (e) => publishDatasetEvent(nc, config.NATS_SUBJECT_PREFIX, e),
    log,
  });
}
