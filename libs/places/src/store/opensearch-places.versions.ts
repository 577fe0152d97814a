import { Logger } from '@nestjs/common';
import { CountryCode } from '@lookup/contracts';
import { awaitReplicas, bulkIndex, NO_REPLICAS, OpenSearchClient, PackedHitsReader, pipelinedBulk, REPLICAS, searchDirect } from '@lookup/shared/search';
import { PlaceDoc } from '../domain/place.doc';
import { BulkLoadReport, DatasetVersionInfo, PlacesStore, PlacesVersionBuild, VersionScope } from './places.store';
import { F, PLACES_INDEX } from './places.mapping';
import { fromStored, Stored } from './opensearch-places.stored';

/**
 * Versioned places indexes. The read alias `<prefix>-places` points at one index per country
 * (`<prefix>-places-cz-<version>`), plus, for deployments older than the pipeline, the shared
 * index `<prefix>-places-v1` with an alias filter hiding the countries that have their own
 * index now. A build writes a new country index, verifies it, then ONE `_aliases` call removes
 * the old country index, adds the new one and re-filters the shared one: readers see the old
 * version or the new, never a half-built or empty one. The same call moves the country's own
 * alias `<prefix>-places-cz` to the new index: a search of one country reads that alias, one
 * shard, where the read alias would send it to every country's index (see country-read-aliases.ts).
 */

/** Documents per bulk request: large enough to amortise a request, small enough for the heap. */
export const BULK_DOCS = 5000;
/** A version's merge into one segment (17 s for the whole CZ register here): far past that, the version goes live unmerged. */
const FORCE_MERGE_TIMEOUT_MS = 30 * 60_000;
const log = new Logger('PlacesVersions');
const PAGE = 5000;

type AliasInfo = Record<string, { aliases: Record<string, { filter?: unknown }> }>;

/** `20261122051000123`: sorts like the time it was built, valid in an index name. */
export function versionStamp(now = new Date()): string {
  return now.toISOString().replace(/[^0-9]/g, '');
}

export function countryIndexName(alias: string, country: CountryCode, version: string): string {
  return `${alias}-${country.toLowerCase()}-${version}`;
}

/** The alias a country's own index carries besides the read alias: `<prefix>-places-cz`. */
export function countryAliasName(alias: string, country: CountryCode): string {
  return `${alias}-${country.toLowerCase()}`;
}

/** The country and version of a per-country index name, or null for the shared (legacy) index. */
export function parseCountryIndex(alias: string, index: string): { country: CountryCode; version: string } | null {
  const m = new RegExp(`^${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-([a-z]{2})-(\\d+)$`).exec(index);
  return m ? { country: m[1].toUpperCase() as CountryCode, version: m[2] } : null;
}

export async function aliasIndexes(client: OpenSearchClient, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists.body) return [];
  return Object.keys((await client.indices.getAlias({ name: alias })).body as AliasInfo);
}

/** Where a country's documents are written: its own index, else the shared one. */
export function writeIndexFor(alias: string, targets: string[], country: CountryCode): string {
  const own = targets.find((t) => parseCountryIndex(alias, t)?.country === country);
  const shared = targets.find((t) => parseCountryIndex(alias, t) === null);
  const index = own ?? shared;
  if (!index) throw new Error(`alias ${alias} has no index for ${country}`);
  return index;
}

/**
 * Pure: the one `_aliases` body of a switch (tested on its own). `countryTargets`: the indexes
 * the country's own alias points at now (its old version; none before the country's first
 * version, or on a deployment older than these aliases).
 */
export function switchActions(alias: string, targets: string[], next: string, countryTargets: string[] = []): unknown[] {
  const country = parseCountryIndex(alias, next)?.country;
  const own = new Set(targets.map((t) => parseCountryIndex(alias, t)?.country).filter((c): c is CountryCode => !!c));
  if (country) own.add(country);
  const actions: unknown[] = [];
  for (const t of targets) {
    const p = parseCountryIndex(alias, t);
    if (p && p.country === country && t !== next) actions.push({ remove: { index: t, alias } });
    if (!p) {
      // The shared index keeps serving the countries without their own index.
      actions.push({ remove: { index: t, alias } });
      actions.push({ add: { index: t, alias, filter: { bool: { must_not: [{ terms: { [F.country]: [...own].sort() } }] } } } });
    }
  }
  actions.push({ add: { index: next, alias } });
  if (country) {
    const own = countryAliasName(alias, country);
    for (const t of countryTargets) if (t !== next) actions.push({ remove: { index: t, alias: own } });
    actions.push({ add: { index: next, alias: own } });
  }
  return actions;
}

/**
 * Every stored document of a query, by place_id order (search_after paging). With `packed`, the
 * documents come from the packed column (`_source` on an index made before it, see
 * PackedHitsReader); without, from `_source` (a version build copying an older index).
 */
export async function* scan(client: OpenSearchClient, index: string, query: unknown, packed?: PackedHitsReader<PlaceDoc, Stored>): AsyncGenerator<PlaceDoc[]> {
  let after: unknown[] | undefined;
  for (;;) {
    const page = { size: PAGE, query, sort: [{ [F.placeId]: 'asc' }], ...(after ? { search_after: after } : {}) };
    const hits = packed
      ? await packed.search(client, index, page, (doc, sort) => ({ doc, sort }))
      : (await searchDirect<{ hits: { hits: Array<{ _source: Stored; sort: unknown[] }> } }>(client, index, page)).hits.hits.map((h) => ({ doc: fromStored(h._source), sort: h.sort }));
    if (hits.length) yield hits.map((h) => h.doc);
    if (hits.length < PAGE) return;
    after = hits[hits.length - 1].sort;
  }
}

async function* mapPages(pages: AsyncIterable<PlaceDoc[]>, fn: (d: PlaceDoc) => PlaceDoc): AsyncGenerator<PlaceDoc[]> {
  for await (const docs of pages) yield docs.map(fn);
}

function countryQuery(country: CountryCode, notObjects?: string[]): unknown {
  const filter = [{ term: { [F.country]: country } }];
  return notObjects ? { bool: { filter, must_not: [{ terms: { [F.object]: notObjects } }] } } : { bool: { filter } };
}

export async function countIn(client: OpenSearchClient, index: string, country: CountryCode): Promise<number> {
  const res = await client.count({ index, body: { query: countryQuery(country) } as never });
  return (res.body as { count: number }).count;
}

/** The live version of a country: its own index, or `legacy` for the shared index. */
export async function liveCountryVersion(client: OpenSearchClient, alias: string, country: CountryCode): Promise<DatasetVersionInfo | null> {
  const targets = await aliasIndexes(client, alias);
  const own = targets.find((t) => parseCountryIndex(alias, t)?.country === country);
  if (own) return { version: parseCountryIndex(alias, own)!.version, docs: await countIn(client, own, country) };
  const shared = targets.find((t) => parseCountryIndex(alias, t) === null);
  if (!shared) return null;
  const docs = await countIn(client, shared, country);
  return docs > 0 ? { version: 'legacy', docs } : null;
}

export class OpenSearchPlacesVersionBuild implements PlacesVersionBuild {
  carried = 0;
  private done = false;

  constructor(
    private readonly client: OpenSearchClient,
    private readonly alias: string,
    private readonly index: string,
    readonly version: string,
    private readonly bulk: (index: string, docs: PlaceDoc[]) => Promise<void>,
    private readonly readerOf: (index: string) => PlacesStore,
    private readonly afterSwitch?: () => Promise<void>,
  ) {}

  /** Creates the index (no refresh, no replicas while loading) and copies what the scope keeps. */
  static async begin(
    client: OpenSearchClient,
    alias: string,
    scope: VersionScope,
    bulk: (index: string, docs: PlaceDoc[]) => Promise<void>,
    readerOf: (index: string) => PlacesStore,
    afterSwitch?: () => Promise<void>,
  ): Promise<OpenSearchPlacesVersionBuild> {
    const targets = await aliasIndexes(client, alias);
    await removeOrphans(client, alias, scope.country, targets);
    const version = versionStamp();
    const index = countryIndexName(alias, scope.country, version);
    // Built without replicas; the seal turns them on (copied from the finished primary, not indexed twice).
    const settings = { ...PLACES_INDEX.settings, refresh_interval: '-1', ...NO_REPLICAS };
    await client.indices.create({ index, body: { settings, mappings: PLACES_INDEX.mappings } as never });
    const b = new OpenSearchPlacesVersionBuild(client, alias, index, version, bulk, readerOf, afterSwitch);
    if (scope.replace !== 'all' && targets.length) {
      try {
        const from = writeIndexFor(alias, targets, scope.country);
        // The next page is read while the last one is written (one bulk in flight, as a load).
        const pages = scan(client, from, countryQuery(scope.country, scope.replace));
        b.carried = await pipelinedBulk(scope.carry ? mapPages(pages, scope.carry) : pages, (docs) => bulk(index, docs), BULK_DOCS, scope.onCarried);
      } catch (err) {
        await b.abort();
        throw err;
      }
    }
    return b;
  }

  async load(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = process.hrtime.bigint();
    const n = await pipelinedBulk(batches, (docs) => this.bulk(this.index, docs), BULK_DOCS, onProgress);
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  /**
   * Makes the version searchable: merged into one segment first (a bulk load leaves a dozen or
   * more; every search then looks each term up in each of them: on the whole CZ register the
   * engine's p50 went 2.7-3.4 -> 1.95 ms), then replicas copy the merged primary. The merge is an
   * optimisation: one that fails or runs past its time is logged and the version goes live as is.
   */
  async seal(): Promise<void> {
    await this.client.indices.refresh({ index: this.index });
    try {
      await this.client.indices.forcemerge({ index: this.index, max_num_segments: 1 }, { requestTimeout: FORCE_MERGE_TIMEOUT_MS });
    } catch (err) {
      log.warn(`${this.index}: merging into one segment failed, the version goes live unmerged: ${err instanceof Error ? err.message : String(err)}`);
    }
    await this.client.indices.putSettings({ index: this.index, body: { index: { refresh_interval: '1s', auto_expand_replicas: REPLICAS } } as never });
    await this.client.indices.refresh({ index: this.index });
    await awaitReplicas(this.client, this.index);
  }

  async count(): Promise<number> {
    return countIn(this.client, this.index, this.country());
  }

  private country(): CountryCode {
    return parseCountryIndex(this.alias, this.index)!.country;
  }

  async withReader<T>(fn: (store: PlacesStore) => Promise<T>): Promise<T> {
    return fn(this.readerOf(this.index));
  }

  async commit(): Promise<void> {
    const targets = await aliasIndexes(this.client, this.alias);
    const countryTargets = await aliasIndexes(this.client, countryAliasName(this.alias, this.country()));
    await this.client.indices.updateAliases({ body: { actions: switchActions(this.alias, targets, this.index, countryTargets) } as never });
    this.done = true;
    // The store that built it reads the new country alias from now on (another process within COUNTRY_ALIASES_REFRESH_MS).
    await this.afterSwitch?.().catch(() => undefined);
    for (const t of targets) {
      const p = parseCountryIndex(this.alias, t);
      if (t !== this.index && p?.country === this.country()) await this.client.indices.delete({ index: t }).catch(() => undefined);
      // The shared index hides the country behind the alias filter now; its old copies only take space.
      if (!p) await deleteCountry(this.client, t, this.country());
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.client.indices.delete({ index: this.index }).catch(() => undefined);
  }
}

/**
 * Deletes a country's documents from an index, page by page (bulk deletes by id): the
 * `_delete_by_query` API lives in OpenSearch's reindex module, which a minimal node lacks.
 */
async function deleteCountry(client: OpenSearchClient, index: string, country: CountryCode): Promise<void> {
  for (;;) {
    const res = await client.search({ index, body: { size: PAGE, _source: false, query: countryQuery(country), sort: [{ [F.placeId]: 'asc' }] } as never });
    const hits = (res.body as { hits: { hits: Array<{ _id: string }> } }).hits.hits;
    if (hits.length === 0) return;
    await client.bulk({ body: hits.map((h) => ({ delete: { _index: index, _id: h._id } })) as never, refresh: true });
  }
}

/** Indexes of the country that are not behind the alias: left by a crashed or killed build. */
async function removeOrphans(client: OpenSearchClient, alias: string, country: CountryCode, targets: string[]): Promise<void> {
  const res = await client.cat.indices({ index: `${alias}-${country.toLowerCase()}-*`, format: 'json' } as never).catch(() => ({ body: [] }));
  for (const row of res.body as Array<{ index: string }>) {
    if (parseCountryIndex(alias, row.index) && !targets.includes(row.index)) await client.indices.delete({ index: row.index }).catch(() => undefined);
  }
}

/** The default bulk writer of a build. */
export function bulkPlaces(client: OpenSearchClient, toStored: (d: PlaceDoc) => object): (index: string, docs: PlaceDoc[]) => Promise<void> {
  return (index, docs) => bulkIndex(client, index, docs.map(toStored), (d) => (d as PlaceDoc).place_id);
}
