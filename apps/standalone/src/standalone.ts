import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@lookup/shared/config';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer } from '@lookup/shared/transport';
import { createGatewayApp, HttpLayerOptions } from '@lookup/gateway';
import { PlacesModule } from '@lookup/places';
import { UtilsModule } from '@lookup/utils';
import { IntlModule } from '@lookup/intl';
import { BusinessModule } from '@lookup/business';

/** Everything in one process: the gateway's HTTP, the services' handlers on an in-process bus. */
export async function createStandaloneApp(config: AppConfig, http: HttpLayerOptions = {}): Promise<NestFastifyApplication> {
  const bus = new InProcessBus();
  const transport = new InProcessTransportClient(bus, config.TRANSPORT_TIMEOUT_MS);
  const app = await createGatewayApp(config, transport, [PlacesModule.forRoot({ config }), IntlModule.forRoot({ config }), UtilsModule.forRoot({ config }), BusinessModule.forRoot({ config })], http);
  app.connectMicroservice({ strategy: new InProcessTransportServer(bus) }, { inheritAppConfig: false });
  await app.startAllMicroservices();
  return app;
}
