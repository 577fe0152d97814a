import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { BUSINESS_STORE, BusinessStore } from './store/business.store';
import { configuredBusinessSources, importBusiness, sampleBusinessSources } from './importers/business-import';

/**
 * Standalone on a bare machine: when the store is empty, import the configured official files,
 * or else the bundled sample (SAMPLE_DATA, on by default). The distributed profile imports
 * through the indexer, never at service start.
 */
@Injectable()
export class BusinessDataBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('BusinessData');

  constructor(
    @Inject(BUSINESS_STORE) private readonly store: BusinessStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROFILE !== 'standalone' || (await this.store.count()) > 0) return;
    const configured = configuredBusinessSources(this.config);
    const sources = configured ?? (this.config.SAMPLE_DATA ? sampleBusinessSources() : null);
    if (!sources) return;
    const r = await importBusiness(this.store, sources, configured ? 'configured files' : 'bundled sample');
    this.logger.log(`${r.docs} entities (${r.skipped} rows skipped, ${r.refreshed} ARES refreshes) from the ${r.source} in ${r.seconds.toFixed(1)} s`);
  }
}
