import { CountryCode, PlaceObject } from '@lookup/contracts';
import { aliasTargets, bulkIndex, ensureAliasedIndex, OpenSearchClient } from '@lookup/shared/search';
import { PlaceDoc } from '../domain/place.doc';
import { CandidateQuery } from '../search/candidate-query';
import { docTokens } from '../search/doc-tokens';
import { buildOpenSearchNearby, buildOpenSearchSearch } from '../search/opensearch-query.builder';
import { BulkLoadReport, CATALOGUE_OBJECTS, CatalogueObject, NearbyHit, NearbyQuery, PlacesStore } from './places.store';
import { F, PLACES_INDEX, TOKENS_FIELD } from './places.mapping';

type Stored = PlaceDoc & { location?: { lat: number; lon: number }; tokens?: string };
type Hits = { hits: { hits: Array<{ _source: Stored; sort?: unknown[] }> } };

const PAGE = 5000;
/** Bulk request size of the fast path: large enough to amortise a request, small enough for the heap. */
const BULK_DOCS = 5000;

export function toStored(d: PlaceDoc): Stored {
  const s: Stored = { ...d, tokens: docTokens(d).join(' ') };
  if (d.lat !== null && d.lng !== null) s.location = { lat: d.lat, lon: d.lng };
  return s;
}

function fromStored(s: Stored): PlaceDoc {
  const { location: _location, tokens: _tokens, ...doc } = s;
  return doc;
}

/** Distributed engine: OpenSearch (or Elasticsearch) behind the alias `<prefix>-places`. */
export class OpenSearchPlacesStore implements PlacesStore {
  readonly engine = 'opensearch' as const;
  readonly alias: string;

  constructor(
    private readonly client: OpenSearchClient,
    indexPrefix: string,
  ) {
    this.alias = `${indexPrefix}-places`;
  }

  async init(): Promise<void> {
    await ensureAliasedIndex(this.client, this.alias, PLACES_INDEX);
    // Indexes made before search existed lack the token field; adding a field is allowed in place.
    await this.client.indices.putMapping({ index: this.alias, body: { properties: { [F.tokens]: TOKENS_FIELD } } as never });
  }

  private async bulk(docs: PlaceDoc[]): Promise<void> {
    for (let i = 0; i < docs.length; i += PAGE) await bulkIndex(this.client, this.alias, docs.slice(i, i + PAGE).map(toStored), (d) => d.place_id);
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const before = new Set<string>();
    for (const o of CATALOGUE_OBJECTS) for (const d of await this.list(country, o)) before.add(d.place_id);
    await this.bulk(docs);
    for (const d of docs) before.delete(d.place_id);
    const stale = [...before];
    for (let i = 0; i < stale.length; i += PAGE) {
      const body = stale.slice(i, i + PAGE).map((id) => ({ delete: { _index: this.alias, _id: id } }));
      await this.client.bulk({ body: body as never });
    }
    await this.client.indices.refresh({ index: this.alias });
  }

  async upsert(docs: PlaceDoc[]): Promise<void> {
    await this.bulk(docs);
    await this.client.indices.refresh({ index: this.alias });
  }

  async bulkLoad(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport> {
    const t0 = process.hrtime.bigint();
    const [index] = await aliasTargets(this.client, this.alias);
    const settings = (await this.client.indices.getSettings({ index })).body as Record<string, { settings: { index: { refresh_interval?: string } } }>;
    const refresh = settings[index]?.settings.index.refresh_interval ?? '1s';
    // No refreshes and no replicas while loading; one refresh at the end makes it all visible.
    await this.client.indices.putSettings({ index, body: { index: { refresh_interval: '-1', number_of_replicas: 0 } } as never });
    let n = 0;
    let pending: PlaceDoc[] = [];
    let inFlight: Promise<void> | null = null;
    // One request in flight while the next is built: the engine indexes while we serialise.
    const flush = async (docs: PlaceDoc[]) => {
      if (inFlight) await inFlight;
      inFlight = bulkIndex(this.client, index, docs.map(toStored), (d) => d.place_id);
    };
    try {
      for await (const batch of batches) {
        pending.push(...batch);
        while (pending.length >= BULK_DOCS) {
          await flush(pending.slice(0, BULK_DOCS));
          pending = pending.slice(BULK_DOCS);
        }
        n += batch.length;
        onProgress?.(n);
      }
      if (pending.length) await flush(pending);
      if (inFlight) await inFlight;
    } finally {
      await this.client.indices.putSettings({ index, body: { index: { refresh_interval: refresh } } as never });
      await this.client.indices.refresh({ index });
    }
    return { docs: n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }

  async candidates(q: CandidateQuery): Promise<PlaceDoc[]> {
    const body = buildOpenSearchSearch(q);
    if (!body) return [];
    const res = await this.client.search({ index: this.alias, body: body as never });
    return (res.body as Hits).hits.hits.map((h) => fromStored(h._source));
  }

  async nearby(q: NearbyQuery): Promise<NearbyHit[]> {
    const res = await this.client.search({ index: this.alias, body: buildOpenSearchNearby(q.lat, q.lng, q.metres, q.countries, q.size) as never });
    return (res.body as Hits).hits.hits.map((h) => ({ doc: fromStored(h._source), distanceM: Number(h.sort?.[0] ?? 0) }));
  }

  async list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]> {
    const out: PlaceDoc[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await this.client.search({
        index: this.alias,
        body: {
          size: PAGE,
          _source: { excludes: [F.tokens] },
          query: { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: object } }] } },
          sort: [{ [F.placeId]: 'asc' }],
          ...(after ? { search_after: after } : {}),
        } as never,
      });
      const hits = (res.body as Hits).hits.hits;
      for (const h of hits) out.push(fromStored(h._source));
      if (hits.length < PAGE) return out;
      after = hits[hits.length - 1].sort;
    }
  }

  async get(placeId: string): Promise<PlaceDoc | null> {
    const res = await this.client.search({
      index: this.alias,
      body: { size: 1, _source: { excludes: [F.tokens] }, query: { term: { [F.placeId]: placeId } } } as never,
    });
    const hit = (res.body as Hits).hits.hits[0];
    return hit ? fromStored(hit._source) : null;
  }

  async count(country: CountryCode, object: PlaceObject): Promise<number> {
    const res = await this.client.count({
      index: this.alias,
      body: { query: { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: object } }] } } } as never,
    });
    return (res.body as { count: number }).count;
  }

  async ping(): Promise<void> {
    await this.client.cluster.health({ index: this.alias, timeout: '2s' } as never);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
