import 'reflect-metadata';
import { Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createServiceApp, runMain } from '@lookup/shared/runtime';
import { PlacesServiceModule } from '@lookup/places';

runMain(async () => {
  const config = loadConfig(process.env, { PROFILE: 'distributed' });
  await createServiceApp(PlacesServiceModule.forRoot({ config }), config, Services.places);
});
