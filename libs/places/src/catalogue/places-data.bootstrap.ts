import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { importAddressesIfEmpty, importCatalogues } from './catalogue.import';

/**
 * Standalone on a bare machine: when the store has no catalogue (or no CZ address points),
 * import the configured official files, or else the bundled sample (SAMPLE_DATA, on by default).
 */
@Injectable()
export class PlacesDataBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('PlacesData');

  constructor(
    @Inject(PLACES_STORE) private readonly store: PlacesStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROFILE !== 'standalone') return;
    const reports = await importCatalogues(this.store, this.config, { onlyIfEmpty: true });
    for (const r of reports) this.logger.log(`${r.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.source})`);
    // Addresses after the catalogue: their municipality documents replace the catalogue's positions with centroids.
    for (const a of await importAddressesIfEmpty(this.store, this.config)) {
      this.logger.log(`${a.country}: ${a.addresses} address points, ${a.docs} documents in ${a.seconds.toFixed(1)} s (${a.source})`);
      if (a.errors.length) this.logger.warn(`${a.country} addresses: ${a.errors.length} problems, first: ${a.errors[0]}`);
    }
  }
}
