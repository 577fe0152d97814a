import { Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
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
    @Optional() private readonly adapterHost?: HttpAdapterHost,
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
    const message = firstKeyMessage(key, this.config);
    if (!this.whenListening(() => this.out(message))) this.out(message);
  }

  /**
   * Runs `print` once the server listens, after the start-up log (the sample's import lines), so
   * the key is what the terminal shows last. False where there is no Fastify server to wait for.
   */
  private whenListening(print: () => void): boolean {
    const server = this.adapterHost?.httpAdapter?.getInstance?.() as { addHook?: (name: 'onListen', hook: (done: () => void) => void) => void } | undefined;
    if (typeof server?.addHook !== 'function') return false;
    try {
      server.addHook('onListen', (done) => {
        print();
        done();
      });
      return true;
    } catch {
      return false;
    }
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
