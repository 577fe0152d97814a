import { AppConfig } from '@lookup/shared/config';
import { AsnTable } from './asn.table';
import { ipLocatorFromConfig } from '@lookup/shared/geoip';
import { IpSources } from './ip-details.service';
import { parseDnsServers, ReverseDns } from './reverse-dns';

export { ipLocatorFromConfig };

export function ipSourcesFromConfig(config: AppConfig): IpSources {
  return new IpSources(
    ipLocatorFromConfig(config),
    new AsnTable(config.IP_ASN_DIR),
    new ReverseDns(parseDnsServers(config.IP_DNS_SERVERS), config.IP_DNS_TIMEOUT_MS),
  );
}
