import { CityDb, CityRecord } from './city.db';
import { parseIp, ParsedIp, isPublic } from './ip-address';
import { timezoneFor } from './timezone';

/** Where an address is, as far as the geolocation database knows. */
export interface IpLocation {
  country_code: string | null;
  region: string | null;
  city: string | null;
  postal: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
}

const orNull = (s: string | undefined): string | null => (s && s.trim() ? s : null);
const round = (n: number | undefined): number | null => (typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 1e5) / 1e5 : null);

/** The pure mapping from a DB-IP city record to our location fields. */
export function toIpLocation(r: CityRecord): IpLocation {
  const latitude = round(r.latitude);
  const longitude = round(r.longitude);
  const country = orNull(r.country_code)?.toUpperCase() ?? null;
  return {
    country_code: country,
    region: orNull(r.state1),
    city: orNull(r.city),
    postal: orNull(r.postcode),
    latitude,
    longitude,
    timezone: orNull(r.timezone) ?? timezoneFor(country, latitude, longitude),
  };
}

/**
 * IP geolocation from the MMDB city database: what the IP details route shows and what
 * `around_latlng_via_ip` in places uses. Null for private/reserved addresses and for
 * addresses the database does not cover.
 */
export class IpLocator {
  constructor(private readonly db: CityDb = new CityDb()) {}

  ready(): Promise<void> {
    return this.db.ready();
  }

  async locate(ip: string | ParsedIp): Promise<IpLocation | null> {
    const parsed = typeof ip === 'string' ? parseIp(ip) : ip;
    if (!parsed || !isPublic(parsed)) return null;
    const record = await this.db.get(parsed);
    return record ? toIpLocation(record) : null;
  }
}
