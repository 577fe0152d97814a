import 'reflect-metadata';
import { Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createServiceApp, runMain } from '@lookup/shared/runtime';
import { UtilsServiceModule } from '@lookup/utils';

/** The utils service: translator, IP details, EU VAT and e-mail checks on NATS (queue group `utils`). */
runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  await createServiceApp(UtilsServiceModule.forRoot({ config }), config, Services.utils);
});
