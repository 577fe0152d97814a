import 'reflect-metadata';
import { Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createServiceApp, runMain } from '@lookup/shared/runtime';
import { BusinessServiceModule } from '@lookup/business';

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  await createServiceApp(BusinessServiceModule.forRoot({ config }), config, Services.business);
});
