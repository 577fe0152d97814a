import { createTestSchema } from '../libs/shared/testing/src/postgres';
import { tempDir } from '../libs/shared/testing/src/tmp';

/**
 * The keys store a gateway bench runs on, by profile (argv[2]): `distributed` a fresh
 * PostgreSQL schema on the shared server, otherwise a standalone SQLite data dir. Returns the
 * config overrides and what removes it afterwards.
 */
export async function gatewayStore(schemaPrefix: string): Promise<{ profile: 'standalone' | 'distributed'; overrides: Record<string, unknown>; cleanup: () => Promise<void> }> {
  if (process.argv[2] === 'distributed') {
    const pg = await createTestSchema(schemaPrefix);
    return { profile: 'distributed', overrides: { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema }, cleanup: async () => void (await pg.drop()) };
  }
  const dir = tempDir();
  return { profile: 'standalone', overrides: { PROFILE: 'standalone', DATA_DIR: dir.path }, cleanup: async () => void dir.remove() };
}
