import {
  acquireImportLease,
  addMissingField,
  ImportLease,
  ImportLeaseOptions,
  aliasTargets,
  bulkIndex,
  ensureAliasedIndex,
  OpenSearchClient,
  packJson,
  PackedHitsReader,
  pipelinedBulk,
  retryWhileNoShard,
  searchDirect,
  switchAlias,
  unpackJson,
  versionedIndexName,
} from '@lookup/shared/search';
import { BF, BusinessDoc } from '../domain/business.doc';
import { CountryCode } from '@lookup/contracts';
import { BusinessFilter, BulkLoadReport, BusinessStore, BusinessVersionBuild, BusinessVersionInfo } from './business.store';
import { indexedFields } from './business-index';
import { BUSINESS_ALIAS_SUFFIX, BUSINESS_INDEX, PACKED_FIELD } from './business.mapping';
import { cinQuery, namePrefixQuery, tokensQuery } from './opensearch-business.query';

interface Stored {
  [BF.id]: string;
  [BF.country]: string;
  [BF.nameKey]: string;
  [BF.nameTokens]: string;
  [BF.cin]: string;
  [BF.cinKey]: string;
  [BF.active]: boolean;
  [BF.doc]: BusinessDoc;
  [BF.packed]: string;
}

function toStored(d: BusinessDoc): Stored {
  const f = indexedFields(d);
  return { business_id: d.business_id, country: d.country, name_key: f.name_key, name_tokens: f.name_key, cin: d.cin, cin_key: f.cin_key, active: f.active, doc: d, doc_packed: packBusiness(d) };
}

/** The packed column's format: its first element. */
const PACKED_V1 = 1;

/** The document as the packed column holds it: `[1, doc]` as JSON (`packJson`). */
export function packBusiness(d: BusinessDoc): string {
  return packJson([PACKED_V1, d]);
}

/** `packBusiness` undone; null for what is not a packed document of this format. */
export function unpackBusiness(base64: string): BusinessDoc | null {
  const v = unpackJson(base64);
  if (!Array.isArray(v) || v.length !== 2 || v[0] !== PACKED_V1 || typeof v[1] !== 'object' || v[1] === null) return null;
  return v[1] as BusinessDoc;
}

type Hits = { hits: { hits: Array<{ _source: { doc: BusinessDoc } }> } };

/**
 * Distributed engine: OpenSearch (or Elasticsearch) behind the alias `<prefix>-business`; a full
 * import builds a new versioned index and switches the alias, so readers never see half of one.
 */
export class OpenSearchBusinessStore implements BusinessStore {
  readonly engine = 'opensearch' as const;
  readonly alias: string;

  /** `readIndex`: a store reading one index only (the pipeline's verify step), never written. */
  constructor(
    private readonly client: OpenSearchClient,
    private readonly indexPrefix: string,
    private readonly readIndex?: string,
  ) {
    this.alias = readIndex ?? `${indexPrefix}-${BUSINESS_ALIAS_SUFFIX}`;
  }

  /** The register's import lease (`business` in `<prefix>-import-locks`): one build at a time, whatever the country. */
  lockImports(command: string, opts?: ImportLeaseOptions): Promise<ImportLease> {
    if (this.readIndex) throw new Error('a reader store cannot import');
    return acquireImportLease(this.client, this.indexPrefix, 'business', command, opts);
  }

  async init(): Promise<void> {
    if (this.readIndex) return;
    await ensureAliasedIndex(this.client, this.alias, BUSINESS_INDEX);
    // An index made before the packed column: the strict mapping would refuse documents that
    // carry it, so it gets the field (adding one is allowed in place); its older documents have
    // no value there and are read through _source until the next import.
    await addMissingField(this.client, this.alias, BF.packed, PACKED_FIELD);
  }

  /** Searches read their hits from the packed column (`_source` on an index made before it). */
  private readonly packed = new PackedHitsReader<BusinessDoc, { doc: BusinessDoc }>(BF.packed, unpackBusiness, (s) => s.doc, 'businesses');

  /** Every search through `_source` from now on: for benchmarks comparing the two reads on one index. */
  readThroughSource(): this {
    this.packed.readThroughSource();
    return this;
  }

  /** Whether the next search reads the packed column (else `_source`). */
  get readsPacked(): boolean {
    return this.packed.readsPacked;
  }

  async upsert(docs: BusinessDoc[]): Promise<void> {
    await bulkIndex(this.client, this.alias, docs.map(toStored), (d) => d.business_id, true);
  }

  async replaceAll(batches: AsyncIterable<BusinessDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = Date.now();
    const index = versionedIndexName(this.alias, Date.now().toString(36));
    const def = { settings: { ...BUSINESS_INDEX.settings, refresh_interval: '-1' }, mappings: BUSINESS_INDEX.mappings };
    await this.client.indices.create({ index, body: def as never });
    let n = 0;
    try {
      for await (const batch of batches) {
        await bulkIndex(this.client, index, batch.map(toStored), (d) => d.business_id);
        n += batch.length;
        onProgress?.(n);
      }
      await this.client.indices.putSettings({ index, body: { index: { refresh_interval: BUSINESS_INDEX.settings['refresh_interval'] } } as never });
      await this.client.indices.refresh({ index });
    } catch (err) {
      await this.client.indices.delete({ index }).catch(() => undefined);
      throw err;
    }
    const old = await switchAlias(this.client, this.alias, index);
    for (const o of old) await this.client.indices.delete({ index: o }).catch(() => undefined);
    return { docs: n, seconds: (Date.now() - t0) / 1000 };
  }

  async get(businessId: string): Promise<BusinessDoc | null> {
    const res = await retryWhileNoShard(() => searchDirect<Hits>(this.client, this.alias, { size: 1, _source: [BF.doc], query: { term: { [BF.id]: businessId } } }));
    return res.hits.hits[0]?._source.doc ?? null;
  }

  async count(): Promise<number> {
    const res = await this.client.count({ index: this.alias });
    return (res.body as { count: number }).count;
  }

  private docs(body: Record<string, unknown>): Promise<BusinessDoc[]> {
    return retryWhileNoShard(() => this.packed.search(this.client, this.alias, body, (doc) => doc));
  }

  byNamePrefix(key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    return this.docs(namePrefixQuery(key, filter, size));
  }

  byTokens(words: string[], prefixes: string[], filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    if (words.length + prefixes.length === 0) return Promise.resolve([]);
    return this.docs(tokensQuery(words, prefixes, filter, size));
  }

  byCin(digits: string, key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]> {
    return this.docs(cinQuery(digits, key, filter, size));
  }

  async ping(): Promise<void> {
    const targets = await aliasTargets(this.client, this.alias);
    if (targets.length === 0) throw new Error(`alias ${this.alias} points at no index`);
  }

  async liveVersion(country: CountryCode): Promise<BusinessVersionInfo | null> {
    const [index] = await aliasTargets(this.client, this.alias);
    if (!index) return null;
    const docs = await countCountry(this.client, index, country);
    return docs > 0 ? { version: index.slice(this.alias.length + 2), docs } : null;
  }

  async beginVersion(country: CountryCode): Promise<BusinessVersionBuild> {
    if (this.readIndex) throw new Error('a reader store cannot build versions');
    const targets = await aliasTargets(this.client, this.alias);
    // Versions not behind the alias were left by a crashed or killed build.
    const all = await this.client.cat.indices({ index: `${this.alias}-v*`, format: 'json' } as never).catch(() => ({ body: [] }));
    for (const row of all.body as Array<{ index: string }>) if (!targets.includes(row.index)) await this.client.indices.delete({ index: row.index }).catch(() => undefined);
    const version = new Date().toISOString().replace(/[^0-9]/g, '');
    const index = versionedIndexName(this.alias, version);
    const def = { settings: { ...BUSINESS_INDEX.settings, refresh_interval: '-1' }, mappings: BUSINESS_INDEX.mappings };
    await this.client.indices.create({ index, body: def as never });
    const build = new OpenSearchBusinessBuild(this.client, this.alias, index, version, country);
    try {
      for (const from of targets) await build.carry(from);
    } catch (err) {
      await build.abort();
      throw err;
    }
    return build;
  }

  async close(): Promise<void> {
    // A reader shares its parent's client.
    if (this.readIndex) return;
    await this.client.close();
  }
}

async function countCountry(client: OpenSearchClient, index: string, country: CountryCode): Promise<number> {
  const res = await client.count({ index, body: { query: { term: { [BF.country]: country } } } as never });
  return (res.body as { count: number }).count;
}

const CARRY_PAGE = 5000;

/** A new business index: other countries copied from the live one, the new register, then one alias switch. */
class OpenSearchBusinessBuild implements BusinessVersionBuild {
  carried = 0;
  private done = false;

  constructor(
    private readonly client: OpenSearchClient,
    private readonly alias: string,
    private readonly index: string,
    readonly version: string,
    private readonly country: CountryCode,
  ) {}

  async carry(from: string): Promise<void> {
    let after: unknown[] | undefined;
    for (;;) {
      const res = await this.client.search({
        index: from,
        body: {
          size: CARRY_PAGE,
          _source: [BF.doc],
          query: { bool: { must_not: [{ term: { [BF.country]: this.country } }] } },
          sort: [{ [BF.id]: 'asc' }],
          ...(after ? { search_after: after } : {}),
        } as never,
      });
      const hits = (res.body as { hits: { hits: Array<{ _source: { doc: BusinessDoc }; sort: unknown[] }> } }).hits.hits;
      if (hits.length) await bulkIndex(this.client, this.index, hits.map((h) => toStored(h._source.doc)), (d) => d.business_id);
      this.carried += hits.length;
      if (hits.length < CARRY_PAGE) return;
      after = hits[hits.length - 1].sort;
    }
  }

  async load(batches: AsyncIterable<BusinessDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = Date.now();
    const n = await pipelinedBulk(batches, (batch) => bulkIndex(this.client, this.index, batch.map(toStored), (d) => d.business_id), 0, onProgress);
    return { docs: n, seconds: (Date.now() - t0) / 1000 };
  }

  async seal(): Promise<void> {
    await this.client.indices.putSettings({ index: this.index, body: { index: { refresh_interval: BUSINESS_INDEX.settings['refresh_interval'] } } as never });
    await this.client.indices.refresh({ index: this.index });
  }

  count(): Promise<number> {
    return countCountry(this.client, this.index, this.country);
  }

  withReader<T>(fn: (store: BusinessStore) => Promise<T>): Promise<T> {
    return fn(new OpenSearchBusinessStore(this.client, '', this.index));
  }

  async commit(): Promise<void> {
    const old = await switchAlias(this.client, this.alias, this.index);
    this.done = true;
    for (const o of old) await this.client.indices.delete({ index: o }).catch(() => undefined);
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.client.indices.delete({ index: this.index }).catch(() => undefined);
  }
}
