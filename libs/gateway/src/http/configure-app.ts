import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { registerHttpMetrics, registerMetricsRoute } from '@lookup/shared/metrics';
import { BODY_LIMIT_BYTES, parseQueryString, registerBodyParsers, registerQueryLimit } from './body-parsing';
import { KEY_HEADERS } from './api-key.guard';
import { capConnectionsPerIp, httpServerOptions, MAX_PARAM_LENGTH } from './http-limits';
import { REDACT_PATHS, REDACTED, redactText, requestLogEntry } from './redact';
import { registerDemoPage } from './demo-page';
import { AccessLog, logUnanswered } from './access-log';
import { serializeReply } from './reply-serializer';
import { registerRouteIndex } from './route-methods';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** What a caller may change about the HTTP layer beyond config: where the request log goes (tests read it). */
export interface HttpLayerOptions {
  logStream?: Writable;
}

/** What keeps API keys out of the gateway's log lines: pino's redaction and serializers (redact.ts). */
export const LOG_REDACTION = {
  redact: { paths: REDACT_PATHS, censor: REDACTED },
  serializers: {
    req: requestLogEntry,
    request: requestLogEntry,
    err: (err: Error) => ({ type: err.name, message: redactText(err.message ?? ''), stack: redactText(err.stack ?? '') }),
  },
};

/**
 * Fastify with pino logs carrying a request id (taken from X-Request-Id when a proxy sets one),
 * API keys redacted from every log line, and the limits that cut slow clients off.
 */
export function createFastifyAdapter(config: AppConfig, opts: HttpLayerOptions = {}): FastifyAdapter {
  const logger = config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, ...(opts.logStream ? { stream: opts.logStream } : {}), ...LOG_REDACTION };
  const options = {
    logger,
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...httpServerOptions(config),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
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
  registerRouteIndex(fastify);
  registerBodyParsers(fastify);
  // A service's answer that crossed NATS as JSON is written as it came (RawJson), not decoded and
  // encoded again. Fastify's types say string; it writes a Buffer payload as it is (reply.js onSendEnd).
  fastify.setReplySerializer(serializeReply as (payload: unknown) => string);
  registerHttpMetrics(fastify);
  logUnanswered(fastify);
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
