import ipaddr from 'ipaddr.js';
import { DomainError, IpDetailsRequest, parseRequest } from '@lookup/contracts';
import { AsnTable } from './asn.table';
import { IpLocator } from './ip-locator';
import { IpDetailsService, IpSources } from './ip-details.service';
import { ReverseDns } from './reverse-dns';
import { FakeDns, fakeDns, reverseName } from './fake-dns.testing';

function reverseName6(ip: string): string {
  const hex = ipaddr.parse(ip).toNormalizedString().split(':').map((g) => g.padStart(4, '0')).join('');
  return `${[...hex].reverse().join('.')}.ip6.arpa`;
}

/**
 * IP details from the bundled DB-IP Lite city MMDB and the ASN table (the npm packages, read
 * where they are installed), with reverse DNS from a loopback DNS server answering PTR.
 */
describe('IP details', () => {
  let dns: FakeDns;
  let svc: IpDetailsService;
  const asn = new AsnTable();
  const locator = new IpLocator();

  beforeAll(async () => {
    dns = await fakeDns({
      [reverseName('147.32.1.1')]: 'www.cvut.cz',
      [reverseName6('2001:4860:4860::8888')]: 'dns.google',
      [reverseName('8.8.4.4')]: 'dns.google',
    });
    svc = new IpDetailsService(new IpSources(locator, asn, new ReverseDns([dns.address], 3000)));
  });
  afterAll(() => dns.close());

  it('answers a public IPv4 address with location, organisation, time zone and hostname', async () => {
    const r = await svc.details('147.32.1.1');
    expect(Object.keys(r)).toEqual(['ip', 'hostname', 'city', 'region', 'country_code', 'latitude', 'longitude', 'org', 'postal', 'timezone']);
    expect(r).toMatchObject({ ip: '147.32.1.1', hostname: 'www.cvut.cz', country_code: 'CZ', org: 'AS2852 CESNET z.s.p.o.', timezone: 'Europe/Prague' });
    expect(r.city).toMatch(/Prag/);
    expect(r.latitude).toBeCloseTo(50.1, 0);
    expect(r.longitude).toBeCloseTo(14.4, 0);
    expect(dns.queries).toContain(reverseName('147.32.1.1'));
  });

  it('answers IPv6, and an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const v6 = await svc.details('2001:4860:4860:0:0:0:0:8888');
    expect(v6).toMatchObject({ ip: '2001:4860:4860::8888', hostname: 'dns.google', org: 'AS15169 Google LLC' });
    expect(v6.country_code).toMatch(/^[A-Z]{2}$/);
    expect(typeof v6.latitude).toBe('number');
    const mapped = await svc.details('::ffff:147.32.1.1');
    expect(mapped).toMatchObject({ ip: '147.32.1.1', country_code: 'CZ' });
  });

  it('picks the zone of a multi-zone country by the nearest reference city', async () => {
    const r = await svc.details('8.8.4.4');
    expect(r.country_code).toBe('US');
    expect(r.timezone).toMatch(/^America\//);
    const loc = await locator.locate('8.8.8.8');
    expect(loc?.longitude).toBeLessThan(-100);
    expect(loc?.timezone).toBe('America/Los_Angeles');
  });

  it.each([
    ['10.1.2.3', 'private'],
    ['192.168.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['224.0.0.1', 'multicast'],
  ])('answers the reserved address %s clearly (%s), with no lookups', async (ip, range) => {
    const before = dns.queries.length;
    const r = await svc.details(ip);
    expect(r).toMatchObject({ bogon: true, reserved_range: range, city: null, country_code: null, latitude: null, org: null, hostname: null });
    expect(dns.queries.length).toBe(before);
  });

  it.each(['999.1.1.1', '10.1', '1.2.3', 'example.com', '1.2.3.4/24', '2001:::1'])('refuses %s as invalid_parameter naming ip_address', async (ip) => {
    let err: unknown;
    try {
      parseRequest(IpDetailsRequest, { ip_address: ip });
      await svc.details(ip);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect([(err as DomainError).type, (err as DomainError).param]).toEqual(['invalid_parameter', 'ip_address']);
  });

  it('gives up on a slow or absent resolver within its timeout and still answers', async () => {
    dns.slow.set(reverseName('147.32.1.1'), 20000);
    const quick = new IpDetailsService(new IpSources(locator, asn, new ReverseDns([dns.address], 300)));
    const t0 = Date.now();
    const r = await quick.details('147.32.1.1');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect([r.hostname, r.country_code]).toEqual([null, 'CZ']);
    dns.slow.clear();
    const none = new IpDetailsService(new IpSources(locator, asn, new ReverseDns(['127.0.0.1:9'], 300)));
    expect((await none.details('147.32.1.1')).hostname).toBeNull();
  });

  it('reports an unreadable database as a server fault', async () => {
    const broken = new IpDetailsService(new IpSources(locator, new AsnTable('/nonexistent'), new ReverseDns([dns.address], 300)));
    const err = await broken.details('147.32.1.1').catch((e: unknown) => e);
    expect([(err as DomainError).type, (err as DomainError).status]).toEqual(['service_unavailable', 503]);
  });
});
