import { Inject, Injectable } from '@nestjs/common';
import { CatalogueEntry, CountryCode, DomainError, Place } from '@lookup/contracts';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { sortByName, toCatalogueEntry, toPlace } from '../domain/place.mapper';
import { toSearchPlace } from '../search/place-result.mapper';
import { StampedCache } from '../store/stamped-cache';

/**
 * The region, county and municipality lists of a country. A list is kept as answered (sorted,
 * mapped, frozen) with the store's data stamp read before and after it was built, and answered
 * again while the stamp is the same: exact (any write or version switch, by any process, changes
 * the stamp), and the 6 258 CZ municipalities cost one stamp read instead of a 5 000-a-page
 * fetch, a sort and a mapping.
 */
@Injectable()
export class CatalogueService {
  /** Shared by every later answer, so frozen. */
  private readonly lists: StampedCache<readonly object[]>;

  constructor(@Inject(PLACES_STORE) private readonly store: PlacesStore) {
    this.lists = new StampedCache(store, { keep: (items) => Object.freeze(items.map((item) => Object.freeze(item))) });
  }

  regions(country: CountryCode): Promise<CatalogueEntry[]> {
    return this.cached(`${country}:region`, async () => sortByName(await this.store.list(country, 'region'), country).map(toCatalogueEntry));
  }

  counties(country: CountryCode): Promise<CatalogueEntry[]> {
    return this.cached(`${country}:county`, async () => sortByName(await this.store.list(country, 'county'), country).map(toCatalogueEntry));
  }

  municipalities(country: CountryCode): Promise<Place[]> {
    return this.cached(`${country}:municipality`, async () => sortByName(await this.store.list(country, 'municipality'), country).map((d) => toPlace(d)));
  }

  private cached<T extends object>(key: string, build: () => Promise<T[]>): Promise<T[]> {
    return this.lists.get(key, build) as Promise<T[]>;
  }

  async detail(placeId: string): Promise<Place> {
    const doc = await this.store.get(placeId);
    if (!doc) throw DomainError.notFound('place_id', `Place ${placeId}`);
    // Catalogue kinds keep their catalogue shape; addresses, streets and postal codes get their search field sets.
    return doc.object === 'address' || doc.object === 'street' || doc.object === 'postal_code' ? toSearchPlace(doc) : toPlace(doc);
  }

  async health(): Promise<{ status: 'ok'; engine: string }> {
    await this.store.ping();
    return { status: 'ok', engine: this.store.engine };
  }
}
