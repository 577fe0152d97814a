import { DynamicModule, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, nestLogger } from '@lookup/shared/config';
import { NatsTransportServer } from '@lookup/shared/transport';
import { registerMetricsRoute, RpcMetricsInterceptor } from '@lookup/shared/metrics';

/**
 * A service app in the distributed profile: its message handlers on NATS (queue group = the
 * service, so replicas share the load) and a small HTTP port for probes and metrics.
 */
export async function createServiceApp(module: DynamicModule, config: AppConfig, service: string): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ logger: false }), {
    logger: nestLogger(config),
  });
  // The handlers are wired when the microservice connects, so the metrics interceptor must be
  // global (and inherited) before that; it ignores the HTTP probe routes.
  app.useGlobalInterceptors(new RpcMetricsInterceptor());
  app.connectMicroservice(
    { strategy: new NatsTransportServer({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, queue: service, name: service }) },
    { inheritAppConfig: true },
  );
  registerMetricsRoute(app.getHttpAdapter().getInstance());
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  new Logger(service).log(`${service} service on NATS ${config.NATS_URL} (prefix ${config.NATS_SUBJECT_PREFIX}), probes on :${config.PORT}`);
  return app;
}

/** Shell for `main.ts`: fail fast with a clear line instead of a stack. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    // eslint-disable-next-line no-console
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
