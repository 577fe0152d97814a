import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DynamicModule } from '@nestjs/common';
import { AppConfig, nestLogger } from '@lookup/shared/config';
import { TransportClient } from '@lookup/shared/transport';
import { GatewayModule } from './gateway.module';
import { configureGatewayApp, createFastifyAdapter, HttpLayerOptions } from './http/configure-app';

/** The gateway app, not yet listening; `extra` modules join it (the standalone profile's services). */
export async function createGatewayApp(config: AppConfig, transport: TransportClient, extra: DynamicModule[] = [], http: HttpLayerOptions = {}): Promise<NestFastifyApplication> {
  const root: DynamicModule = { module: class GatewayRoot {}, imports: [GatewayModule.forRoot({ config, transport }), ...extra] };
  // Our own parsers (qs-style forms, lenient JSON) replace Nest's, see body-parsing.ts.
  const app = await NestFactory.create<NestFastifyApplication>(root, createFastifyAdapter(config, http), {
    bodyParser: false,
    logger: nestLogger(config),
  });
  await configureGatewayApp(app);
  app.enableShutdownHooks();
  return app;
}
