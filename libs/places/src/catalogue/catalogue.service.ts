import { Inject, Injectable } from '@nestjs/common';
import { CatalogueEntry, CountryCode, DomainError, Place } from '@lookup/contracts';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { sortByName, toCatalogueEntry, toPlace } from '../domain/place.mapper';
import { toSearchPlace } from '../search/place-result.mapper';

@Injectable()
export class CatalogueService {
  constructor(@Inject(PLACES_STORE) private readonly store: PlacesStore) {}

  async regions(country: CountryCode): Promise<CatalogueEntry[]> {
    return sortByName(await this.store.list(country, 'region'), country).map(toCatalogueEntry);
  }

  async counties(country: CountryCode): Promise<CatalogueEntry[]> {
    return sortByName(await this.store.list(country, 'county'), country).map(toCatalogueEntry);
  }

  async municipalities(country: CountryCode): Promise<Place[]> {
    return sortByName(await this.store.list(country, 'municipality'), country).map((d) => toPlace(d));
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
