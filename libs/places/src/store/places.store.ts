import { CountryCode, PlaceObject } from '@lookup/contracts';
import type { ImportLease, ImportLeaseOptions } from '@lookup/shared/search';
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

/** A postal code found in a municipality's documents (PlacesStore.municipalityPostalCodes). */
export interface MunicipalityPostalCode {
  municipality_id: string;
  postal_code: string;
}

export interface NearbyHit {
  doc: PlaceDoc;
  distanceM: number;
}

export interface BulkLoadReport {
  docs: number;
  seconds: number;
}

/** The live version of one country's dataset (the pipeline's `previous`). */
export interface DatasetVersionInfo {
  version: string;
  docs: number;
}

/**
 * Which of the live country's documents a new dataset replaces; the others are carried over,
 * each through `carry` when given (a catalogue import re-links the carried addresses to its
 * regions and counties and counts them for the municipalities' weights and centroids).
 */
export type VersionScope = {
  country: CountryCode;
  replace: PlaceObject[] | 'all';
  carry?: (doc: PlaceDoc) => PlaceDoc;
  /** Told the documents copied so far while the live ones outside the scope are copied (a catalogue import carries every address). */
  onCarried?: (docs: number) => void;
};

/**
 * One dataset version being built beside the live data. Nothing of it is visible to searches
 * until `commit`, which switches in one atomic step; `abort` (or a crash) leaves the live
 * version serving, and the next `beginVersion` removes what a crashed build left behind.
 */
export interface PlacesVersionBuild {
  readonly version: string;
  /** Documents of the live version outside the scope, already copied into the new one. */
  readonly carried: number;
  /** The new dataset, on the engine's bulk path (one request in flight); upserts by place_id. */
  load(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport>;
  /** Makes the loaded documents searchable in the new version (indexes, refresh); before the verify step. */
  seal(): Promise<void>;
  /** The country's documents in the new version. */
  count(): Promise<number>;
  /** Runs `fn` on a read-only store over the new version only (the verify step's canary queries). */
  withReader<T>(fn: (store: PlacesStore) => Promise<T>): Promise<T>;
  commit(): Promise<void>;
  abort(): Promise<void>;
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
  /** The documents of these ids that the store holds, in no particular order (absent ids are left out): one engine call, not one per id. */
  getMany(placeIds: readonly string[]): Promise<PlaceDoc[]>;
  count(country: CountryCode, object: PlaceObject): Promise<number>;
  /** Inserts or replaces documents by place_id, visible to searches when it resolves. */
  upsert(docs: PlaceDoc[]): Promise<void>;
  /** Deletes documents by place_id (absent ids are ignored), visible to searches when it resolves: change batches. */
  remove(placeIds: string[]): Promise<void>;
  /** A whole dataset, batch by batch, on the engine's fast path (indexing deferred to the end); upserts by place_id. */
  bulkLoad(batches: AsyncIterable<PlaceDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport>;
  /** Documents containing every term, within the filters; at most `size`, in no particular order. */
  candidates(q: CandidateQuery): Promise<PlaceDoc[]>;
  /** Address points within `metres` of a point, nearest first (ties by place_id). */
  nearby(q: NearbyQuery): Promise<NearbyHit[]>;
  /**
   * The municipalities (ids) whose addresses have this postal code, exactly as stored (`53701`):
   * a code serves several (537 01: Chrudim, Lány, Dřenice, ...), its postal-code document names
   * only the one most of its addresses lie in. Read from the engine's own indexes, not the documents.
   */
  postalMunicipalities(country: CountryCode, code: string): Promise<string[]>;
  /**
   * The other way round: the postal codes the documents of these municipalities (ids) have,
   * starting with `prefix` (digits as stored), each with the municipality it was found in; at
   * most `size` pairs. A postal search refined by a town asks at every keystroke of the code.
   */
  municipalityPostalCodes(municipalityIds: string[], prefix: string, size: number): Promise<MunicipalityPostalCode[]>;
  /**
   * Whether a typo pass over these objects in these countries (all when null) can start at once:
   * false while it would first read the engine's vocabulary (SQLite: once per connection and data
   * version, a quarter to half a second on a whole register). Engines without such a step leave it out.
   */
  typoPassReady?(objects: PlaceObject[], countries: readonly CountryCode[] | null): boolean;
  /** The version serving the country's documents now; null when it has none. */
  liveVersion(country: CountryCode): Promise<DatasetVersionInfo | null>;
  /** Starts a new version of the country's documents beside the live one (see PlacesVersionBuild). */
  beginVersion(scope: VersionScope): Promise<PlacesVersionBuild>;
  /**
   * One writer of a country at a time, across processes (see import-lease.ts): taken before an
   * import reads the live version and held until its switch. Engines whose imports are serialised
   * otherwise (SQLite: one data directory's import.lock) leave it out.
   */
  lockImports?(country: CountryCode, command: string, opts?: ImportLeaseOptions): Promise<ImportLease>;
  /**
   * A value that changes whenever what the reads return may have changed (a write by any process,
   * a version switched in): equal before and after a read, and again later, it means the read's
   * answer still holds. Cheap next to `list` (a pragma; one `_stats` call). Null where the engine
   * will not say (an OpenSearch user without the monitor privilege): nothing is kept then.
   */
  dataStamp(): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
