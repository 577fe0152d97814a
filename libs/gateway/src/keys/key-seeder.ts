import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { ApiKeyService } from './api-key.service';

/** SEED_API_KEY gives scripts and tests a known key without the CLI. */
@Injectable()
export class KeySeeder implements OnApplicationBootstrap {
  constructor(
    private readonly keys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.SEED_API_KEY) await this.keys.seed(this.config.SEED_API_KEY);
  }
}
