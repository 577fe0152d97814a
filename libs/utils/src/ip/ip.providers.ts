import { AppConfig } from '@lookup/shared/config';
import { AsnTable } from './asn.table';
import { CityDb, defaultCityDbPaths } from './city.db';
import { IpLocator } from './ip-locator';
import { IpSources } from './ip-details.service';
import { parseDnsServers, ReverseDns } from './reverse-dns';

/** The IP locator the configuration names (bundled DB-IP Lite by default); places uses it for `around_latlng_via_ip`. */
export function ipLocatorFromConfig(config: AppConfig): IpLocator {
  const bundled = config.IP_CITY_MMDB_V4 && config.IP_CITY_MMDB_V6 ? null : defaultCityDbPaths();
  return new IpLocator(new CityDb({ v4: config.IP_CITY_MMDB_V4 ?? bundled!.v4, v6: config.IP_CITY_MMDB_V6 ?? bundled!.v6 }));
}

export function ipSourcesFromConfig(config: AppConfig): IpSources {
  return new IpSources(
    ipLocatorFromConfig(config),
    new AsnTable(config.IP_ASN_DIR),
    new ReverseDns(parseDnsServers(config.IP_DNS_SERVERS), config.IP_DNS_TIMEOUT_MS),
  );
}
