import 'reflect-metadata';
import { loadConfig } from '@lookup/shared/config';
import { createGatewayApp } from '@lookup/gateway';
import { NatsTransportClient } from '@lookup/shared/transport';
import { runMain } from '@lookup/shared/runtime';

/** Distributed gateway: HTTP in, NATS out. */
runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  const transport = await NatsTransportClient.connect({
    url: config.NATS_URL,
    prefix: config.NATS_SUBJECT_PREFIX,
    name: 'gateway',
    timeoutMs: config.TRANSPORT_TIMEOUT_MS,
  });
  const app = await createGatewayApp(config, transport);
  await app.listen(config.PORT, config.HOST);
});
