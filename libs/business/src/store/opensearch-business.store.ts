import { aliasTargets, bulkIndex, ensureAliasedIndex, OpenSearchClient, switchAlias, versionedIndexName } from '@lookup/shared/search';
import { BF, BusinessDoc } from '../domain/business.doc';
import { BusinessFilter, BulkLoadReport, BusinessStore } from './business.store';
import { indexedFields } from './business-index';
import { BUSINESS_ALIAS_SUFFIX, BUSINESS_INDEX } from './business.mapping';
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
}

function toStored(d: BusinessDoc): Stored {
  const f = indexedFields(d);
  return { business_id: d.business_id, country: d.country, name_key: f.name_key, name_tokens: f.name_key, cin: d.cin, cin_key: f.cin_key, active: f.active, doc: d };
}

type Hits = { hits: { hits: Array<{ _source: { doc: BusinessDoc } }> } };

/**
 * Distributed engine: OpenSearch (or Elasticsearch) behind the alias `<prefix>-business`; a full
 * import builds a new versioned index and switches the alias, so readers never see half of one.
 */
export class OpenSearchBusinessStore implements BusinessStore {
  readonly engine = 'opensearch' as const;
  readonly alias: string;

  constructor(
    private readonly client: OpenSearchClient,
    indexPrefix: string,
  ) {
    this.alias = `${indexPrefix}-${BUSINESS_ALIAS_SUFFIX}`;
  }

  async init(): Promise<void> {
    await ensureAliasedIndex(this.client, this.alias, BUSINESS_INDEX);
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
    const res = await this.client.search({ index: this.alias, body: { size: 1, _source: [BF.doc], query: { term: { [BF.id]: businessId } } } as never });
    return (res.body as Hits).hits.hits[0]?._source.doc ?? null;
  }

  async count(): Promise<number> {
    const res = await this.client.count({ index: this.alias });
    return (res.body as { count: number }).count;
  }

  private async docs(body: Record<string, unknown>): Promise<BusinessDoc[]> {
    const res = await this.client.search({ index: this.alias, body: body as never });
    return (res.body as Hits).hits.hits.map((h) => h._source.doc);
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

  async close(): Promise<void> {
    await this.client.close();
  }
}
