import { AppConfig } from '@lookup/shared/config';
import { CityDb, defaultCityDbPaths } from './city.db';
import { IpLocator } from './ip-locator';

/** The IP locator the configuration names (bundled DB-IP Lite by default): the utils IP route and `around_latlng_via_ip` in places. */
export function ipLocatorFromConfig(config: AppConfig): IpLocator {
  const bundled = config.IP_CITY_MMDB_V4 && config.IP_CITY_MMDB_V6 ? null : defaultCityDbPaths();
  return new IpLocator(new CityDb({ v4: config.IP_CITY_MMDB_V4 ?? bundled!.v4, v6: config.IP_CITY_MMDB_V6 ?? bundled!.v6 }));
}
