import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@lookup/shared/config';
import { runMain } from '@lookup/shared/runtime';
import { createStandaloneApp } from './standalone';

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'standalone' });
  const app = await createStandaloneApp(config);
  await app.listen(config.PORT, config.HOST);
  new Logger('standalone').log(`Lookup API on http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT} (docs at /docs)`);
});
