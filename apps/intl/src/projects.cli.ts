import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '@lookup/shared/config';
import { intlDataSourceOptions, ProjectsService, ProjectsUsageError, runProjectsCommand } from '@lookup/intl';

/** `npm run projects -- create shop`: against the profile's store (PROFILE, DATABASE_URL, DATA_DIR). */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ds = await new DataSource(intlDataSourceOptions(config)).initialize();
  try {
    await runProjectsCommand(process.argv.slice(2), new ProjectsService(ds), (l) => console.log(l));
  } finally {
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(err instanceof ProjectsUsageError ? 2 : 1);
});
