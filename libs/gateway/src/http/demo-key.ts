import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyService } from '../keys/api-key.service';

/**
 * Makes the demo page's keys: one per origin the page is loaded from, usable only from there,
 * with the small page quota and rate of ApiKeyService.createPageKey. The first one of a start
 * revokes the page keys of earlier starts.
 */
export function demoKeyFactory(app: NestFastifyApplication): (origin: string) => Promise<string> {
  const keys = app.get(ApiKeyService);
  let cleared: Promise<void> | undefined;
  return async (origin) => {
    cleared ??= keys.revokePageKeys();
    await cleared;
    return keys.createPageKey({ origins: [origin] });
  };
}
