import { CountryCode, PlaceObject } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';

export const PLACES_STORE = Symbol('PLACES_STORE');

export type CatalogueObject = Extract<PlaceObject, 'region' | 'county' | 'municipality'>;
export const CATALOGUE_OBJECTS: CatalogueObject[] = ['region', 'county', 'municipality'];

/** The places search port; one adapter per engine, the same answers from each. */
export interface PlacesStore {
  readonly engine: 'sqlite' | 'opensearch';
  init(): Promise<void>;
  /** Replaces the country's region, county and municipality documents; readers see old or new, never none. */
  replaceCatalogue(country: CountryCode, docs: PlaceDoc[]): Promise<void>;
  list(country: CountryCode, object: CatalogueObject): Promise<PlaceDoc[]>;
  get(placeId: string): Promise<PlaceDoc | null>;
  count(country: CountryCode, object: PlaceObject): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
