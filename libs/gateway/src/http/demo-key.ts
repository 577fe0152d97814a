import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyService } from '../keys/api-key.service';

/** What the demo page does with its keys. */
export interface DemoKeys {
  /** A key usable only from `origin`, with the small page quota and rate of ApiKeyService.createPageKey. */
  create(origin: string): Promise<string>;
  /** Revokes the page keys of earlier starts (once; `create` waits for it). */
  revokeEarlier(): Promise<void>;
}

/**
 * Makes the demo page's keys: one per origin the page is loaded from. The page keys of earlier
 * starts are revoked when the server is ready (registerDemoPage), not at the page's first load:
 * a key copied out of the page stops working at the next start even if nobody opens the page.
 */
export function demoKeyFactory(app: NestFastifyApplication): DemoKeys {
  const keys = app.get(ApiKeyService);
  let cleared: Promise<void> | undefined;
  // A failure (the key store down at start) is tried again by the next call.
  const revokeEarlier = () =>
    (cleared ??= keys.revokePageKeys().catch((err: unknown) => {
      cleared = undefined;
      throw err;
    }));
  return {
    revokeEarlier,
    async create(origin) {
      await revokeEarlier();
      return keys.createPageKey({ origins: [origin] });
    },
  };
}
