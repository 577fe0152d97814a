import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyService } from '../keys/api-key.service';

/** What a demo visitor may spend a month: enough to play, too little to be worth stealing. */
const DEMO_SEARCH_LIMIT = 2000;
const DEMO_QUERY_LIMIT = 100;

/**
 * A key for the demo page, made at run time for one origin (the page's own) with a small quota.
 * Stand-in until the security area's key factory lands (libs/gateway/src/keys): this is the one
 * call site to switch over.
 */
export async function createDemoKey(app: NestFastifyApplication, origin: string): Promise<string> {
  const { key } = await app.get(ApiKeyService).create({
    name: 'demo page',
    key: `demo_${randomBytes(18).toString('base64url')}`,
    monthlySearchLimit: DEMO_SEARCH_LIMIT,
    monthlyQueryLimit: DEMO_QUERY_LIMIT,
    allowedOrigins: [origin],
  });
  return key;
}
