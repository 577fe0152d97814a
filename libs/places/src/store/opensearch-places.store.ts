import { CountryCode, PlaceObject } from '@lookup/contracts';
import { bulkIndex, ensureAliasedIndex, OpenSearchClient } from '@lookup/shared/search';
import { PlaceDoc } from '../domain/place.doc';
import { CATALOGUE_OBJECTS, CatalogueObject, PlacesStore } from './places.store';
import { F, PLACES_INDEX } from './places.mapping';

type Stored = PlaceDoc & { location?: { lat: number; lon: number } };

const PAGE = 5000;

function toStored(d: PlaceDoc): Stored {
  return d.lat !== null && d.lng !== null ? { ...d, location: { lat: d.lat, lon: d.lng } } : d;
}

function fromStored(s: Stored): PlaceDoc {
  const { location: _location, ...doc } = s;
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
  }

  async replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void> {
    const before = new Set<string>();
    for (const o of CATALOGUE_OBJECTS) for (const d of await this.list(country, o)) before.add(d.place_id);
    for (let i = 0; i < docs.length; i += PAGE) {
      await bulkIndex(this.client, this.alias, docs.slice(i, i + PAGE).map(toStored), (d) => d.place_id);
    }
    for (const d of docs) before.delete(d.place_id);
    const stale = [...before];
    for (let i = 0; i < stale.length; i += PAGE) {
      const body = stale.slice(i, i + PAGE).map((id) => ({ delete: { _index: this.alias, _id: id } }));
      await this.client.bulk({ body: body as never });
    }
    await this.client.indices.refresh({ index: this.alias });
  }

  async list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]> {
    const out: PlaceDoc[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await this.client.search({
        index: this.alias,
        body: {
          size: PAGE,
          query: { bool: { filter: [{ term: { [F.country]: country } }, { term: { [F.object]: object } }] } },
          sort: [{ [F.placeId]: 'asc' }],
          ...(after ? { search_after: after } : {}),
        } as never,
      });
      const hits = (res.body as { hits: { hits: Array<{ _source: Stored; sort: unknown[] }> } }).hits.hits;
      for (const h of hits) out.push(fromStored(h._source));
      if (hits.length < PAGE) return out;
      after = hits[hits.length - 1].sort;
    }
  }

  async get(placeId: string): Promise<PlaceDoc | null> {
    const res = await this.client.search({
      index: this.alias,
      body: { size: 1, query: { term: { [F.placeId]: placeId } } } as never,
    });
    const hit = (res.body as { hits: { hits: Array<{ _source: Stored }> } }).hits.hits[0];
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
