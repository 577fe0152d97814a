import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService, PAGE_KEY_NAME } from './api-key.service';

/** How users manage keys; one constant so the CLI's name can change in one place. */
export const MANAGE_KEYS_HINT = 'manage keys with: npx lookup keys list|create|revoke (or npm run keys -- ...)';
export const FIRST_KEY_NAME = 'first key';

/** Where the first key is printed: stdout, not the log, so log shipping never carries it. */
export type KeyOutput = (text: string) => void;
export const KEY_OUTPUT = Symbol('KEY_OUTPUT');
export const stdoutKeyOutput: KeyOutput = (text) => process.stdout.write(text);

/**
 * Keys at start. SEED_API_KEY: that key is ensured (scripts, tests). Otherwise a standalone
 * server whose store holds no key makes one random key and prints it once; there is no
 * well-known key. The distributed profile never makes keys on its own.
 */
@Injectable()
export class KeySeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiKeys');

  constructor(
    private readonly keys: ApiKeyService,
    private readonly repo: ApiKeyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(KEY_OUTPUT) private readonly out: KeyOutput,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.SEED_API_KEY) return this.keys.seed(this.config.SEED_API_KEY);
    if (this.config.PROFILE !== 'standalone') return;
    if ((await this.repo.countKeys(PAGE_KEY_NAME, true)) > 0) {
      const n = await this.repo.countKeys(PAGE_KEY_NAME, false);
      this.logger.log(`${n} API key${n === 1 ? '' : 's'} exist; ${MANAGE_KEYS_HINT}`);
      return;
    }
    const { key } = await this.keys.create({ name: FIRST_KEY_NAME });
    this.out(firstKeyMessage(key, this.config));
  }
}

export function firstKeyMessage(key: string, config: AppConfig): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const port = config.PORT === 0 ? '<port>' : String(config.PORT);
  return [
    '',
    'A new API key was created for this server (shown only now; only its hash is stored):',
    '',
    `  ${key}`,
    '',
    'Try it:',
    `  curl -s -X POST http://${host}:${port}/v1/places/regions -d 'country=CZ&api_key=${key}'`,
    '',
    MANAGE_KEYS_HINT.charAt(0).toUpperCase() + MANAGE_KEYS_HINT.slice(1),
    '',
  ].join('\n');
}
