import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, isLoopbackHost, projectRoot } from '@lookup/shared/config';
import { demoKeyFactory } from './demo-key';

/** The page's own files (apps/gateway/src/demo) and the map library's, by URL under /demo/. */
function demoAssets(dir: string): Map<string, { type: string; body: Buffer }> {
  const leaflet = join(projectRoot(), 'node_modules/leaflet/dist');
  const proj4 = join(projectRoot(), 'node_modules/proj4/dist');
  const files: Array<[string, string, string]> = [
    ['demo.js', join(dir, 'demo.js'), 'text/javascript; charset=utf-8'],
    ['demo-map.js', join(dir, 'demo-map.js'), 'text/javascript; charset=utf-8'],
    ['demo.css', join(dir, 'demo.css'), 'text/css; charset=utf-8'],
    ['leaflet/leaflet.js', join(leaflet, 'leaflet.js'), 'text/javascript; charset=utf-8'],
    ['leaflet/leaflet.css', join(leaflet, 'leaflet.css'), 'text/css; charset=utf-8'],
    ['proj4.js', join(proj4, 'proj4.js'), 'text/javascript; charset=utf-8'],
  ];
  for (const img of ['marker-icon.png', 'marker-icon-2x.png', 'marker-shadow.png', 'layers.png', 'layers-2x.png']) {
    files.push([`leaflet/images/${img}`, join(leaflet, 'images', img), 'image/png']);
  }
  return new Map(files.map(([url, path, type]) => [url, { type, body: readFileSync(path) }]));
}

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's CSP: its own scripts; images also from the tile server, when one is configured. */
function contentSecurityPolicy(tileUrl: string): string {
  const tiles = tileUrl ? ` ${new URL(tileUrl.replace(/\{[^}]*\}/g, 'x')).origin}` : '';
  return `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:${tiles}; base-uri 'none'; form-action 'none'`;
}

const NOT_FOUND = { error: { type: 'invalid_request', code: 'invalid_request', message: 'Unknown endpoint.', param: null } };

/** An http(s) origin (scheme, host, optional port; nothing after): what a browser sends as Origin. */
const ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[^/:?#\[\]]+)(:\d{1,5})?$/;

/**
 * Whether the page loaded from `origin` gets a key made for it: a loopback origin, any port (the
 * page as `lookup start` serves it to the machine's own browser), or one of DEMO_PAGE_ORIGINS.
 */
export function demoOriginAllowed(origin: string, configured: readonly string[]): boolean {
  const o = origin.toLowerCase();
  const host = ORIGIN.exec(o)?.[1];
  return (host !== undefined && isLoopbackHost(host)) || configured.includes(o);
}

/**
 * The demo page at `/` (static files read once): it calls the real API from the browser, shows
 * the suggestions on a Leaflet map and reverse-geocodes a click. Its key is made per start for
 * the origin that loaded the page (see `demoKeyFactory`), so it is useless from anywhere else.
 */
export function registerDemoPage(app: NestFastifyApplication, config: AppConfig, dir = join(projectRoot(), 'apps/gateway/src/demo')): void {
  if (!config.demoPageEnabled) return;
  const fastify = app.getHttpAdapter().getInstance();
  const template = readFileSync(join(dir, 'index.html'), 'utf8').replace('{{DEMO_TILE_URL}}', escapeAttr(config.DEMO_TILE_URL));
  const assets = demoAssets(dir);
  const csp = contentSecurityPolicy(config.DEMO_TILE_URL);
  // One key per origin the page was loaded from (127.0.0.1 and localhost are two), made on first use.
  const keys = new Map<string, Promise<string>>();
  const demoKeys = demoKeyFactory(app);
  // Not a reason to refuse to start: the page's first load tries again.
  if (!config.DEMO_API_KEY) fastify.addHook('onReady', () => demoKeys.revokeEarlier().catch((err: unknown) => new Logger('DemoPage').warn(`could not revoke the earlier starts' page keys yet: ${String(err)}`)));
  const keyFor = (origin: string): Promise<string> => {
    if (config.DEMO_API_KEY) return Promise.resolve(config.DEMO_API_KEY);
    if (!demoOriginAllowed(origin, config.demoPageOrigins)) return Promise.resolve('');
    let key = keys.get(origin);
    if (!key) {
      if (keys.size >= 8) return Promise.resolve('');
      key = demoKeys.create(origin);
      keys.set(origin, key);
      key.catch(() => keys.delete(origin));
    }
    return key;
  };

  fastify.get('/', async (req, reply) => {
    const key = await keyFor(`${req.protocol}://${req.headers.host ?? '127.0.0.1'}`);
    const html = template.replace('{{DEMO_API_KEY}}', escapeAttr(key));
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', csp).header('cache-control', 'no-store').send(html);
  });
  fastify.get('/demo/*', async (req, reply) => {
    // A Map, not an object: `/demo/__proto__` or `/demo/toString` must be a plain 404.
    const asset = assets.get((req.params as { '*': string })['*']);
    if (!asset) return reply.status(404).send(NOT_FOUND);
    return reply.header('content-type', asset.type).header('cache-control', 'no-cache').send(asset.body);
  });
}
