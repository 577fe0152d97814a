import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { IMPORT_STATUS, SERVICE_READINESS } from '@lookup/shared/runtime';
import { PLACES_STORE, PlacesStore } from './store/places.store';
import { createPlacesStore } from './store/places-store.factory';
import { createDatasetStatus } from './store/dataset-status';
import { CatalogueService } from './catalogue/catalogue.service';
import { PlacesHandlers } from './catalogue/places.handlers';
import { PlacesDataBootstrap } from './catalogue/places-data.bootstrap';
import { PlacesSearchService } from './search/places-search.service';
import { PlacesSearchHandlers } from './search/places-search.handlers';
import { PLACES_SEARCH_THREADS, SearchThreads } from './search/search-threads';
import { SqlitePlacesStore } from './store/sqlite-places.store';
import { PlacesValidateHandlers } from './validate/places-validate.handlers';
import { PlacesValidateService } from './validate/places-validate.service';

/**
 * The search threads start with the app (not with a user's first search), and the app serves once
 * they have loaded (SearchThreads.ready()); they stop before the store closes.
 */
@Injectable()
class PlacesStoreLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(PLACES_STORE) private readonly store: PlacesStore,
    @Inject(PLACES_SEARCH_THREADS) private readonly threads: SearchThreads | null,
  ) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.threads?.ready();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.threads?.close();
    await this.store.close();
  }
}

/** The standalone engine searches on worker threads (SEARCH_THREADS); OpenSearch does its own work. */
function searchThreads(store: PlacesStore, config: AppConfig): SearchThreads | null {
  if (!(store instanceof SqlitePlacesStore) || config.SEARCH_THREADS < 1) return null;
  return new SearchThreads(() => store.source, config.SEARCH_THREADS, undefined, config.SEARCH_INLINE_BELOW_MS);
}

export interface PlacesModuleOptions {
  config: AppConfig;
  /** Tests hand in a store of their own (e.g. an index with a unique prefix). */
  store?: PlacesStore;
}

@Module({})
export class PlacesModule {
  static forRoot(options: PlacesModuleOptions): DynamicModule {
    return {
      module: PlacesModule,
      imports: [ConfigModule.forRoot(options.config)],
      controllers: [PlacesHandlers, PlacesSearchHandlers, PlacesValidateHandlers],
      providers: [
        {
          provide: PLACES_STORE,
          useFactory: async () => {
            const store = options.store ?? createPlacesStore(options.config);
            await store.init();
            return store;
          },
        },
        { provide: PLACES_SEARCH_THREADS, inject: [PLACES_STORE], useFactory: (s: PlacesStore) => searchThreads(s, options.config) },
        { provide: SERVICE_READINESS, inject: [PLACES_STORE], useFactory: (s: PlacesStore) => () => s.ping() },
        // The live datasets (what `npm run import -- status` prints), for /health/ready.
        {
          provide: IMPORT_STATUS,
          useFactory: () => {
            const status = createDatasetStatus(options.config);
            // Nest calls the hook on any provider value that has it: the OpenSearch client is closed with the app.
            return Object.assign(() => status.read(), { onApplicationShutdown: () => status.close() });
          },
        },
        CatalogueService,
        PlacesSearchService,
        PlacesValidateService,
        PlacesDataBootstrap,
        PlacesStoreLifecycle,
      ],
      exports: [PLACES_STORE, SERVICE_READINESS, IMPORT_STATUS],
    };
  }
}
