import { Logger } from '@nestjs/common';
import { COUNTRY_CODES, CountryCode, PlaceObject } from '@lookup/contracts';
import { acquireImportLease, addMissingField, bulkIndex, ImportLease, ImportLeaseOptions, ensureAliasedIndex, indexDataStamp, NO_REPLICAS, OpenSearchClient, openSearchStatus, PackedHitsReader, pipelinedBulk, REPLICAS, retryWhileNoShard, searchDirect } from '@lookup/shared/search';
import { PlaceDoc } from '../domain/place.doc';
import { CandidateQuery } from '../search/candidate-query';
import { buildOpenSearchNearby, buildOpenSearchSearch } from '../search/opensearch-query.builder';
import { BulkLoadReport, CATALOGUE_OBJECTS, CatalogueObject, DatasetVersionInfo, MunicipalityPostalCode, NearbyHit, NearbyQuery, PlacesStore, PlacesVersionBuild, VersionScope } from './places.store';
import { aliasIndexes, BULK_DOCS, bulkPlaces, liveCountryVersion, OpenSearchPlacesVersionBuild, scan, writeIndexFor } from './opensearch-places.versions';
import { fromStored, Stored, toStored, unpackDoc } from './opensearch-places.stored';
import { F, PLACES_INDEX, TOKENS_FIELD } from './places.mapping';
import { CountryReadAliases } from './country-read-aliases';

type Hits = { hits: { hits: Array<{ _source: Stored; sort?: unknown[] }> } };

const PAGE = 5000;

/**
 * Distributed engine: OpenSearch (or Elasticsearch) behind the alias `<prefix>-places`, which
 * may point at one index per country (see opensearch-places.versions.ts); writes go to the
 * index of the document's country.
 */
export class OpenSearchPlacesStore implements PlacesStore {
  readonly engine = 'opensearch' as const;
  readonly alias: string;

  /** `readIndex`: a store reading one index only (the pipeline's verify step), never written. */
  constructor(
    private readonly client: OpenSearchClient,
    private readonly indexPrefix: string,
    private readonly readIndex?: string,
  ) {
    this.alias = readIndex ?? `${indexPrefix}-places`;
    this.reads = readIndex ? null : new CountryReadAliases(client, this.alias);
  }

  /** Where a search of one country reads (its own alias); null for a reader of one index. */
  private readonly reads: CountryReadAliases | null;

  /** `read` on what a search of `countries` reads: the country's own alias where it has one, else the read alias. */
  private readFor<T>(countries: readonly CountryCode[] | null, read: (index: string) => Promise<T>): Promise<T> {
    return this.reads ? this.reads.readThrough(countries, read) : retryWhileNoShard(() => read(this.alias));
  }

  async init(): Promise<void> {
    if (this.readIndex) return;
    await ensureAliasedIndex(this.client, this.alias, PLACES_INDEX);
    // Indexes made before search existed lack the token field; adding a field is allowed in place.
    // One made before the prefix index keeps its field as it is (a field's options cannot change
    // in place): its searches give the same answers, a new version of the data brings the prefixes.
    await addMissingField(this.client, this.alias, F.tokens, TOKENS_FIELD);
    await this.reads?.refresh();
  }

  /** Documents grouped by the index their country is written to. */
  private async route(docs: PlaceDoc[]): Promise<Map<string, PlaceDoc[]>> {
    const targets = await aliasIndexes(this.client, this.alias);
    const out = new Map<string, PlaceDoc[]>();
    for (const d of docs) {
      const index = writeIndexFor(this.alias, targets, d.country);
      const list = out.get(index) ?? [];
      list.push(d);
      out.set(index, list);
    }
    return out;
  }

  private async bulk(docs: PlaceDoc[]): Promise<void> {
    for (const [index, list] of await this.route(docs)) {
      for (let i = 0; i < list.length; i += PAGE) await bulkIndex(this.client, index, list.slice(i, i + PAGE).map(toStored), (d) => d.place_id);
    }
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const before = new Set<string>();
    for (const o of CATALOGUE_OBJECTS) for (const d of await this.list(country, o)) before.add(d.place_id);
    await this.bulk(docs);
    for (const d of docs) before.delete(d.place_id);
    const stale = [...before];
    for (let i = 0; i < stale.length; i += PAGE) {
      const index = writeIndexFor(this.alias, await aliasIndexes(this.client, this.alias), country);
      const body = stale.slice(i, i + PAGE).map((id) => ({ delete: { _index: index, _id: id } }));
      await this.client.bulk({ body: body as never });
    }
    await this.client.indices.refresh({ index: this.alias });
  }

  async upsert(docs: PlaceDoc[]): Promise<void> {
    await this.bulk(docs);
    await this.client.indices.refresh({ index: this.alias });
  }

  /** By id in every index behind the alias (a document lives in its country's index, whichever that is now); absent ids are no error. */
  async remove(placeIds: string[]): Promise<void> {
    const indexes = await aliasIndexes(this.client, this.alias);
    for (let i = 0; i < placeIds.length; i += PAGE) {
      const body = indexes.flatMap((index) => placeIds.slice(i, i + PAGE).map((id) => ({ delete: { _index: index, _id: id } })));
      const res = await this.client.bulk({ body: body as never, refresh: true });
      const items = (res.body as { items: Array<{ delete: { status: number; error?: { reason?: string } } }> }).items;
      const failed = items.find((it) => it.delete.status >= 300 && it.delete.status !== 404);
      if (failed) throw new Error(`bulk delete failed: ${failed.delete.error?.reason ?? `status ${failed.delete.status}`}`);
    }
  }

  /** The fast path into the live indexes (first import); a re-index goes through beginVersion. */
  async bulkLoad(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = process.hrtime.bigint();
    const indexes = await aliasIndexes(this.client, this.alias);
    const settings = (await this.client.indices.getSettings({ index: indexes.join(',') })).body as Record<string, { settings: { index: { refresh_interval?: string } } }>;
    // No refreshes and no replicas while loading; one refresh at the end makes it all visible.
    await this.client.indices.putSettings({ index: indexes.join(','), body: { index: { refresh_interval: '-1', ...NO_REPLICAS } } as never });
    let n = 0;
    try {
      n = await pipelinedBulk(batches, (docs) => this.bulk(docs), BULK_DOCS, onProgress);
    } finally {
      for (const index of indexes) {
        await this.client.indices.putSettings({ index, body: { index: { refresh_interval: settings[index]?.settings.index.refresh_interval ?? '1s', auto_expand_replicas: REPLICAS } } as never });
      }
      await this.client.indices.refresh({ index: indexes.join(',') });
    }
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  liveVersion(country: CountryCode): Promise<DatasetVersionInfo | null> {
    return liveCountryVersion(this.client, this.alias, country);
  }

  /** The country's import lease (`places:CZ` in `<prefix>-import-locks`): builds and change batches of one country never overlap. */
  lockImports(country: CountryCode, command: string, opts?: ImportLeaseOptions): Promise<ImportLease> {
    if (this.readIndex) throw new Error('a reader store cannot import');
    return acquireImportLease(this.client, this.indexPrefix, `places:${country}`, command, opts);
  }

  async beginVersion(scope: VersionScope): Promise<PlacesVersionBuild> {
    if (this.readIndex) throw new Error('a reader store cannot build versions');
    return OpenSearchPlacesVersionBuild.begin(this.client, this.alias, scope, bulkPlaces(this.client, toStored), (index) => new OpenSearchPlacesStore(this.client, '', index), async () => this.reads?.refresh());
  }

  /** Searches read their hits from the packed-document column (`_source` on an index made before it). */
  private readonly packed = new PackedHitsReader<PlaceDoc, Stored>(F.doc, unpackDoc, fromStored, 'places');

  /** Every search through `_source` from now on: for benchmarks comparing the two reads on one index. */
  readThroughSource(): this {
    this.packed.readThroughSource();
    return this;
  }

  /** Whether the next search reads the packed-document column (else `_source`). */
  get readsPacked(): boolean {
    return this.packed.readsPacked;
  }

  async candidates(q: CandidateQuery): Promise<PlaceDoc[]> {
    const body = buildOpenSearchSearch(q);
    if (!body) return [];
    return this.readFor(q.countries, (index) => this.packed.search(this.client, index, body, (doc) => doc));
  }

  nearby(q: NearbyQuery): Promise<NearbyHit[]> {
    const body = buildOpenSearchNearby(q.lat, q.lng, q.metres, q.countries, q.size);
    return this.readFor(q.countries, (index) => this.packed.search(this.client, index, body, (doc, sort) => ({ doc, distanceM: Number(sort?.[0] ?? 0) })));
  }

  postalMunicipalities(country: CountryCode, code: string): Promise<string[]> {
    const body = {
      size: 0,
      query: { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: 'address' } }, { term: { [F.postalCode]: code } }] } },
      aggs: { m: { terms: { field: F.municipalityId, size: 10_000 } } },
    };
    return this.readFor([country], async (index) => {
      const res = await searchDirect<{ aggregations?: { m?: { buckets: Array<{ key: string }> } } }>(this.client, index, body);
      return (res.aggregations?.m?.buckets ?? []).map((b) => b.key);
    });
  }

  municipalityPostalCodes(municipalityIds: string[], prefix: string, size: number): Promise<MunicipalityPostalCode[]> {
    if (municipalityIds.length === 0) return Promise.resolve([]);
    const body = {
      size: 0,
      query: { bool: { filter: [{ terms: { [F.municipalityId]: municipalityIds } }, ...(prefix ? [{ prefix: { [F.postalCode]: prefix } }] : [{ exists: { field: F.postalCode } }])] } },
      aggs: { m: { terms: { field: F.municipalityId, size: municipalityIds.length }, aggs: { p: { terms: { field: F.postalCode, size } } } } },
    };
    // The ids name their countries (`cz_m…`): one country's alias when they share one.
    const countries = [...new Set(municipalityIds.map((id) => id.slice(0, 2).toUpperCase()))].filter((c): c is CountryCode => COUNTRY_CODES.includes(c as CountryCode));
    return this.readFor(countries.length === 1 ? countries : null, async (index) => {
      const res = await searchDirect<{ aggregations?: { m?: { buckets: Array<{ key: string; p: { buckets: Array<{ key: string }> } }> } } }>(this.client, index, body);
      const out = (res.aggregations?.m?.buckets ?? []).flatMap((m) => m.p.buckets.map((p) => ({ municipality_id: m.key, postal_code: p.key })));
      // In SQLite's order (its index's: by id, then code).
      const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      return out.sort((a, b) => byText(a.municipality_id, b.municipality_id) || byText(a.postal_code, b.postal_code)).slice(0, size);
    });
  }

  list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]> {
    return this.readFor([country], async (index) => {
      const out: PlaceDoc[] = [];
      for await (const docs of scan(this.client, index, { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: object } }] } }, this.packed)) {
        for (const d of docs) out.push(d);
      }
      return out;
    });
  }

  /** By id; an id names its country (`cz_a…`, see placeId()), whose own alias is asked first, then, if it lacks the id, the read alias. */
  async get(placeId: string): Promise<PlaceDoc | null> {
    const one = async (index: string) => {
      const hit = (await searchDirect<Hits>(this.client, index, { size: 1, query: { term: { [F.placeId]: placeId } } })).hits.hits[0];
      return hit ? fromStored(hit._source) : null;
    };
    const cc = placeId.slice(0, 2).toUpperCase() as CountryCode;
    if (placeId[2] !== '_' || !COUNTRY_CODES.includes(cc)) return one(this.alias);
    const found = await this.readFor([cc], one);
    // Asked on the read alias already (no country alias, or it fell back): no second search.
    return found ?? (!this.reads || this.reads.target([cc]) === this.alias ? null : one(this.alias));
  }

  /** One terms search; ids of one country read that country's alias (as get() does), others the read alias. */
  async getMany(placeIds: readonly string[]): Promise<PlaceDoc[]> {
    const ids = [...new Set(placeIds)];
    if (ids.length === 0) return [];
    const countries = [...new Set(ids.map((id) => (id[2] === '_' ? id.slice(0, 2).toUpperCase() : '')))];
    const one = countries.length === 1 && COUNTRY_CODES.includes(countries[0] as CountryCode) ? [countries[0] as CountryCode] : null;
    return this.readFor(one, async (index) =>
      (await searchDirect<Hits>(this.client, index, { size: ids.length, query: { terms: { [F.placeId]: ids } } })).hits.hits.map((h) => fromStored(h._source)),
    );
  }

  async count(country: CountryCode, object: PlaceObject): Promise<number> {
    const res = await retryWhileNoShard(() =>
      this.client.count({
        index: this.alias,
        body: { query: { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: object } }] } } } as never,
      }),
    );
    return (res.body as { count: number }).count;
  }

  /** False once the cluster refused the stats call (401/403): the lists are then read every time. */
  private stampAllowed = true;

  async dataStamp(): Promise<string | null> {
    if (!this.stampAllowed) return null;
    try {
      return await indexDataStamp(this.client, this.alias);
    } catch (err) {
      const status = openSearchStatus(err);
      if (status !== 401 && status !== 403) throw err;
      this.stampAllowed = false;
      new Logger('PlacesStore').warn(`OpenSearch refused ${this.alias}/_stats (${status}): catalogue lists are read on every request; grant the index the monitor privilege to keep them`);
      return null;
    }
  }

  async ping(): Promise<void> {
    await this.client.cluster.health({ index: this.alias, timeout: '2s' } as never);
  }

  async close(): Promise<void> {
    // A reader shares its parent's client.
    if (!this.readIndex) await this.client.close();
  }
}
