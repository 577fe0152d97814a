import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, projectRoot } from '@lookup/shared/config';
import { registerHttpMetrics, registerMetricsRoute } from '@lookup/shared/metrics';
import { BODY_LIMIT_BYTES, countParams, MAX_PARAMETERS, parseQs, registerBodyParsers, registerQueryLimit } from './body-parsing';
import { KEY_HEADERS } from './api-key.guard';
import { capConnectionsPerIp, httpServerOptions, MAX_PARAM_LENGTH } from './http-limits';
import { REDACT_PATHS, REDACTED, redactText, requestLogEntry } from './redact';
import { ApiKeyService } from '../keys/api-key.service';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** The query string as qs reads it; over MAX_PARAMETERS, registerQueryLimit has already refused the request. */
function parseQuery(text: string): Record<string, unknown> {
  return countParams(text) > MAX_PARAMETERS ? {} : parseQs(text);
}

/** What a caller may change about the HTTP layer beyond config: where the request log goes (tests read it). */
export interface HttpLayerOptions {
  logStream?: Writable;
}

/**
 * Fastify with pino logs carrying a request id (taken from X-Request-Id when a proxy sets one),
 * API keys redacted from every log line, and the limits that cut slow clients off.
 */
export function createFastifyAdapter(config: AppConfig, opts: HttpLayerOptions = {}): FastifyAdapter {
  const logger =
    config.LOG_LEVEL === 'silent'
      ? false
      : {
          level: config.LOG_LEVEL,
          ...(opts.logStream ? { stream: opts.logStream } : {}),
          redact: { paths: REDACT_PATHS, censor: REDACTED },
          serializers: {
            req: requestLogEntry,
            err: (err: Error) => ({ type: err.name, message: redactText(err.message ?? ''), stack: redactText(err.stack ?? '') }),
          },
        };
  const options = {
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...httpServerOptions(config),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQuery },
  };
  return new FastifyAdapter(options as never) as unknown as FastifyAdapter;
}

export const CORS_EXPOSED = ['Retry-After', 'X-Request-Id', 'swiftyper-should-retry'];

/** Everything the gateway app needs beyond its module: parsers, CORS, request ids, docs. */
export async function configureGatewayApp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get<AppConfig>(APP_CONFIG);
  capConnectionsPerIp(fastify.server, config.HTTP_MAX_CONNECTIONS_PER_IP);
  registerQueryLimit(fastify);
  registerBodyParsers(fastify);
  registerHttpMetrics(fastify);
  registerMetricsRoute(fastify);
  // Graceful shutdown: Fastify closes idle keep-alive sockets once, when close starts; a socket
  // busy at that moment would then idle for keepAliveTimeout and hold the exit. Answers sent
  // while closing say `Connection: close`, so each in-flight request finishes and frees its socket.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (closing) reply.header('Connection', 'close');
  });
  app.enableCors({
    origin: true,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'X-Requested-With', 'X-Request-Id', 'Authorization', ...KEY_HEADERS],
    exposedHeaders: CORS_EXPOSED,
    maxAge: 86400,
    // An OPTIONS without preflight headers is a plain OPTIONS request (RFC 9110), not an error:
    // it gets the same 204 and CORS headers instead of @fastify/cors's plain-text 400.
    strictPreflight: false,
  });
  const doc = new DocumentBuilder()
    .setTitle('Lookup API')
    .setDescription('Address, business, phrase and utility lookup, compatible with the official swiftyper clients.')
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-API-Key' }, 'api_key')
    .addSecurityRequirements('api_key')
    .build();
  registerDemoPage(app, config);
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, doc), { jsonDocumentUrl: 'docs/openapi.json' });
}

const DEMO_ASSETS: Record<string, string> = { 'demo.js': 'text/javascript; charset=utf-8', 'demo.css': 'text/css; charset=utf-8' };

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The demo page at `/` (static files in apps/gateway/src/demo, read once): it calls the real API
 * from the browser with DEMO_API_KEY, or else a page key made at start (random, usable only from
 * the page's own origin, small quota; see ApiKeyService.ensurePageKey). The start helper's
 * version of this function replaces this one.
 */
export function registerDemoPage(app: NestFastifyApplication, config: AppConfig, dir = join(projectRoot(), 'apps/gateway/src/demo')): void {
  if (!config.DEMO_PAGE) return;
  const fastify = app.getHttpAdapter().getInstance();
  let key = config.DEMO_API_KEY;
  const template = readFileSync(join(dir, 'index.html'), 'utf8');
  const assets = Object.fromEntries(Object.keys(DEMO_ASSETS).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  // Same-origin scripts only; the page talks to this API and nothing else.
  const csp = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";
  fastify.get('/', async (_req, reply) => {
    const html = template.replace('{{DEMO_API_KEY}}', escapeAttr(key));
    void reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', csp).header('cache-control', 'no-cache').send(html);
  });
  fastify.get('/demo/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    if (!(file in assets)) return reply.status(404).send({ error: { type: 'invalid_request', code: 'invalid_request', message: 'Unknown endpoint.', param: null } });
    void reply.header('content-type', DEMO_ASSETS[file]).header('cache-control', 'no-cache').send(assets[file]);
  });
  const keys = app.get(ApiKeyService);
  if (key) {
    fastify.addHook('onReady', async () => keys.seed(key));
  } else if (config.PROFILE === 'standalone' && config.PORT !== 0) {
    const origins = ['127.0.0.1', 'localhost'].map((h) => `http://${h}:${config.PORT}`);
    fastify.addHook('onReady', async () => {
      key = await keys.ensurePageKey({ origins });
    });
  }
}
