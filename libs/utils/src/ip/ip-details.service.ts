import { Injectable } from '@nestjs/common';
import { DomainError, ErrorTypes, IpDetails } from '@lookup/contracts';
import { AsnTable, formatOrg } from './asn.table';
import { IpLocator } from './ip-locator';
import { isPublic, parseIp } from './ip-address';
import { ReverseDns } from './reverse-dns';

/** The three sources of an IP answer, injected so tests and other areas can build their own. */
export class IpSources {
  constructor(
    readonly locator: IpLocator,
    readonly asn: AsnTable,
    readonly dns: ReverseDns,
  ) {}

  /** Both databases open (a second or two at start; see IpWarmup). */
  async ready(): Promise<void> {
    await Promise.all([this.locator.ready(), this.asn.ready()]);
  }
}

const EMPTY = { hostname: null, city: null, region: null, country_code: null, latitude: null, longitude: null, org: null, postal: null, timezone: null };

/** A database that cannot be read is this server's fault, never the caller's. */
const dbFailure = (what: string) => (): never => {
  throw new DomainError(ErrorTypes.serviceUnavailable, `The ${what} database could not be read.`);
};

@Injectable()
export class IpDetailsService {
  constructor(private readonly sources: IpSources) {}

  async details(input: string): Promise<IpDetails> {
    const ip = parseIp(input);
    if (!ip) throw DomainError.invalidParameter('ip_address', `${JSON.stringify(input)} is not an IPv4 or IPv6 address.`);
    // Private and reserved ranges have no place on the map: a clear answer, not a guess.
    if (!isPublic(ip)) return { ip: ip.text, ...EMPTY, bogon: true, reserved_range: ip.range };
    const [location, asn, hostname] = await Promise.all([
      this.sources.locator.locate(ip).catch(dbFailure('geolocation')),
      this.sources.asn.lookup(ip).catch(dbFailure('ASN')),
      this.sources.dns.hostname(ip.text),
    ]);
    const l = location ?? EMPTY;
    return {
      ip: ip.text,
      hostname,
      city: l.city,
      region: l.region,
      country_code: l.country_code,
      latitude: l.latitude,
      longitude: l.longitude,
      org: formatOrg(asn),
      postal: l.postal,
      timezone: l.timezone,
    };
  }
}
