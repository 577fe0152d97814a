import 'reflect-metadata';
import { Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createServiceApp, runMain } from '@lookup/shared/runtime';
import { IntlServiceModule } from '@lookup/intl';

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  await createServiceApp(IntlServiceModule.forRoot({ config }), config, Services.intl);
});
