import { Inject, Injectable } from '@nestjs/common';
import { CatalogueEntry, CountryCode, DomainError, Place } from '@lookup/contracts';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { sortByName, toCatalogueEntry, toPlace } from '../domain/place.mapper';
import { toSearchPlace } from '../search/place-result.mapper';

/** One list as answered, and the store's data stamp it was read under. */
interface CachedList {
  stamp: string;
  items: readonly object[];
}

/**
 * The region, county and municipality lists of a country. A list is kept as answered (sorted,
 * mapped, frozen) with the store's data stamp read before and after it was built, and answered
 * again while the stamp is the same: exact (any write or version switch, by any process, changes
 * the stamp), and the 6 258 CZ municipalities cost one stamp read instead of a 5 000-a-page
 * fetch, a sort and a mapping.
 */
@Injectable()
export class CatalogueService {
  private readonly lists = new Map<string, CachedList>();

  constructor(@Inject(PLACES_STORE) private readonly store: PlacesStore) {}

  regions(country: CountryCode): Promise<CatalogueEntry[]> {
    return this.cached(`${country}:region`, async () => sortByName(await this.store.list(country, 'region'), country).map(toCatalogueEntry));
  }

  counties(country: CountryCode): Promise<CatalogueEntry[]> {
    return this.cached(`${country}:county`, async () => sortByName(await this.store.list(country, 'county'), country).map(toCatalogueEntry));
  }

  municipalities(country: CountryCode): Promise<Place[]> {
    return this.cached(`${country}:municipality`, async () => sortByName(await this.store.list(country, 'municipality'), country).map((d) => toPlace(d)));
  }

  private async cached<T extends object>(key: string, build: () => Promise<T[]>): Promise<T[]> {
    const stamp = await this.stamp();
    if (stamp === null) return build();
    const hit = this.lists.get(key);
    if (hit && hit.stamp === stamp) return hit.items as T[];
    const items = await build();
    // Kept only when nothing became visible while it was read; shared by every later answer, so frozen.
    if ((await this.stamp()) === stamp) {
      for (const item of items) Object.freeze(item);
      this.lists.set(key, { stamp, items: Object.freeze(items) });
    } else this.lists.delete(key);
    return items;
  }

  /**
   * The store's data stamp, or null when it cannot be read now (a node of the cluster going away
   * under the `_stats` call): the stamp only saves work, so the list is then read as it is and
   * not kept, instead of failing a request the store can answer.
   */
  private async stamp(): Promise<string | null> {
    try {
      return await this.store.dataStamp();
    } catch {
      return null;
    }
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
