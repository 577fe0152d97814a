import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig } from '@lookup/shared/config';
import { DatasetStatus, LiveDataset } from '@lookup/shared/runtime';
import { createOpenSearchClient, OpenSearchClient, REPLICAS } from '@lookup/shared/search';

/**
 * Which datasets are live, per country and kind, kept beside the store they describe: a JSON file
 * in the data dir for SQLite (the CLI and the server share the dir), an index
 * `<INDEX_PREFIX>-datasets` for OpenSearch (the indexer writes it, every places replica reads it).
 */
export interface DatasetStatusStore {
  read(): Promise<DatasetStatus>;
  /** Records a dataset that just went live (replaces the country's previous one of that kind). */
  record(country: string, kind: string, d: LiveDataset): Promise<void>;
  /** Forgets the country's dataset of that kind (the bundled sample's layer an official import removed); absent: nothing. */
  remove(country: string, kind: string): Promise<void>;
  close(): Promise<void>;
}

/** The `source` of a layer the bundled sample put live (`LiveDataset.sample`). */
export const BUNDLED_SAMPLE_SOURCE = 'bundled sample (invented rows)';

/** The kinds of the country's datasets on record as the bundled sample's (`catalogue`, `addresses`). */
export function bundledSampleKinds(status: DatasetStatus, country: string): string[] {
  return Object.entries(status[country] ?? {})
    .filter(([, d]) => d.sample === true)
    .map(([kind]) => kind);
}

/** Per engine: a SQLite file and an OpenSearch cluster fed from one data dir are separate stores. */
export function datasetStatusPath(config: AppConfig): string {
  return join(config.DATA_DIR, `datasets.${config.PROFILE === 'distributed' ? 'opensearch' : 'sqlite'}.json`);
}

export function readStatusFile(path: string): DatasetStatus {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DatasetStatus) : {};
}

/** Written whole, then renamed: a reader never sees half. */
export function recordStatusFile(path: string, country: string, kind: string, d: LiveDataset): void {
  const s = readStatusFile(path);
  s[country] = { ...s[country], [kind]: d };
  writeStatusFile(path, s);
}

/** Forgets the country's dataset of that kind, written as `recordStatusFile` writes. */
export function removeStatusFileEntry(path: string, country: string, kind: string): void {
  const s = readStatusFile(path);
  if (!s[country]?.[kind]) return;
  const { [kind]: _removed, ...rest } = s[country]!;
  if (Object.keys(rest).length) s[country] = rest;
  else delete s[country];
  writeStatusFile(path, s);
}

function writeStatusFile(path: string, s: DatasetStatus): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(s, null, 2));
  renameSync(`${path}.tmp`, path);
}

export class FileDatasetStatus implements DatasetStatusStore {
  constructor(readonly path: string) {}
  async read(): Promise<DatasetStatus> {
    return readStatusFile(this.path);
  }
  async record(country: string, kind: string, d: LiveDataset): Promise<void> {
    recordStatusFile(this.path, country, kind, d);
  }
  async remove(country: string, kind: string): Promise<void> {
    removeStatusFileEntry(this.path, country, kind);
  }
  async close(): Promise<void> {
    // nothing held open
  }
}

type StatusDoc = LiveDataset & { country: string; kind: string };

export class OpenSearchDatasetStatus implements DatasetStatusStore {
  readonly index: string;
  constructor(
    private readonly client: OpenSearchClient,
    indexPrefix: string,
    private readonly owned = false,
  ) {
    this.index = `${indexPrefix}-datasets`;
  }

  async read(): Promise<DatasetStatus> {
    const res = await this.client.search({ index: this.index, body: { size: 1000, query: { match_all: {} } } as never, ignore_unavailable: true } as never);
    const out: DatasetStatus = {};
    for (const hit of (res.body as { hits: { hits: { _source: StatusDoc }[] } }).hits.hits) {
      const { country, kind, ...d } = hit._source;
      out[country] = { ...out[country], [kind]: d };
    }
    return out;
  }

  private ensured = false;

  /**
   * The index with the replicas every index of ours has (auto_expand 0-1): created by the first
   * write it had the cluster's default of one replica, which a single node never assigns (the
   * cluster yellow). An index made so by an earlier version gets the setting here too.
   */
  private async ensureIndex(): Promise<void> {
    if (this.ensured) return;
    const settings = { index: { auto_expand_replicas: REPLICAS } };
    const created = await this.client.indices.create({ index: this.index, body: { settings } } as never).then(
      () => true,
      (err: { meta?: { body?: { error?: { type?: string } } } }) => {
        if (err.meta?.body?.error?.type !== 'resource_already_exists_exception') throw err;
        return false;
      },
    );
    if (!created) await this.client.indices.putSettings({ index: this.index, body: settings } as never);
    this.ensured = true;
  }

  async record(country: string, kind: string, d: LiveDataset): Promise<void> {
    await this.ensureIndex();
    // No mapping needed: a handful of small documents, read whole, never searched by field.
    await this.client.index({ index: this.index, id: `${country}:${kind}`, body: { country, kind, ...d }, refresh: true } as never);
  }

  async remove(country: string, kind: string): Promise<void> {
    await this.client.delete({ index: this.index, id: `${country}:${kind}`, refresh: true } as never).catch((err: { meta?: { statusCode?: number } }) => {
      if (err.meta?.statusCode !== 404) throw err;
    });
  }

  async close(): Promise<void> {
    if (this.owned) await this.client.close();
  }
}

/** The profile's status store, the same engine choice as `createPlacesStore`. */
export function createDatasetStatus(config: AppConfig): DatasetStatusStore {
  if (config.PROFILE === 'distributed') {
    return new OpenSearchDatasetStatus(createOpenSearchClient({ url: config.OPENSEARCH_URL, timeoutMs: config.OPENSEARCH_TIMEOUT_MS }), config.INDEX_PREFIX, true);
  }
  return new FileDatasetStatus(datasetStatusPath(config));
}
