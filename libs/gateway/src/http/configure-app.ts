import { randomUUID } from 'node:crypto';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { registerHttpMetrics, registerMetricsRoute } from '@lookup/shared/metrics';
import { BODY_LIMIT_BYTES, parseQs, registerBodyParsers } from './body-parsing';
import { KEY_HEADERS } from './api-key.guard';
import { registerDemoPage } from './demo-page';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Fastify with pino logs carrying a request id (taken from X-Request-Id when a proxy sets one). */
export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const options = {
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, querystringParser: (s: string) => parseQs(s) },
  };
  return new FastifyAdapter(options as never) as unknown as FastifyAdapter;
}

export const CORS_EXPOSED = ['Retry-After', 'X-Request-Id', 'swiftyper-should-retry'];

/** Everything the gateway app needs beyond its module: parsers, CORS, request ids, docs. */
export async function configureGatewayApp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
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
  });
  const doc = new DocumentBuilder()
    .setTitle('Lookup API')
    .setDescription('Address, business, phrase and utility lookup, compatible with the official swiftyper clients.')
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-API-Key' }, 'api_key')
    .addSecurityRequirements('api_key')
    .build();
  registerDemoPage(app, app.get<AppConfig>(APP_CONFIG));
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, doc), { jsonDocumentUrl: 'docs/openapi.json' });
}
