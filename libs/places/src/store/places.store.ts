import { CountryCode, PlaceObject } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { CandidateQuery } from '../search/candidate-query';

export const PLACES_STORE = Symbol('PLACES_STORE');

export type CatalogueObject = Extract<PlaceObject, 'region' | 'county' | 'municipality'>;
export const CATALOGUE_OBJECTS: CatalogueObject[] = ['region', 'county', 'municipality'];

export interface NearbyQuery {
  lat: number;
  lng: number;
  metres: number;
  countries: CountryCode[] | null;
  size: number;
}

export interface NearbyHit {
  doc: PlaceDoc;
  distanceM: number;
}

export interface BulkLoadReport {
  docs: number;
  seconds: number;
}

/**
 * The places search port; one adapter per engine, the same answers from each. Engines find
 * candidates (`candidates`, `nearby`); ranking, highlight and mapping are shared pure code.
 */
export interface PlacesStore {
  readonly engine: 'sqlite' | 'opensearch';
  init(): Promise<void>;
  /** Replaces the country's region, county and municipality documents; readers see old or new, never none. */
  replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void>;
  list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]>;
  get(placeId: string): Promise<PlaceDoc | null>;
  count(country: CountryCode, object: PlaceObject): Promise<number>;
  /** Inserts or replaces documents by place_id, visible to searches when it resolves. */
  upsert(docs: PlaceDoc[]): Promise<void>;
  /** A whole dataset, batch by batch, on the engine's fast path (indexing deferred to the end); upserts by place_id. */
  bulkLoad(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport>;
  /** Documents containing every term, within the filters; at most `size`, in no particular order. */
  candidates(q: CandidateQuery): Promise<PlaceDoc[]>;
  /** Address points within `metres` of a point, nearest first (ties by place_id). */
  nearby(q: NearbyQuery): Promise<NearbyHit[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
