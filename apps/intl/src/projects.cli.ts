import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { explainDatabaseError } from '@lookup/shared/database';
import { intlDataSourceOptions, ProjectsService, ProjectsUsageError, runProjectsCommand } from '@lookup/intl';

let config: AppConfig | undefined;

/** `npm run projects -- create shop`: against the profile's store (PROFILE, DATABASE_URL, DATA_DIR). */
async function main(): Promise<void> {
  config = loadConfig(process.env);
  const ds = await new DataSource(intlDataSourceOptions(config)).initialize();
  try {
    await runProjectsCommand(process.argv.slice(2), new ProjectsService(ds), (l) => console.log(l));
  } finally {
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  const db = config?.PROFILE === 'distributed' ? explainDatabaseError(err, config) : null;
  console.error(db ?? (err instanceof Error ? err.message : err));
  process.exit(err instanceof ProjectsUsageError ? 2 : 1);
});
