export * from './utils.module';
export { IpLocator, IpLocation, toIpLocation } from './ip/ip-locator';
export { CityDb, defaultCityDbPaths } from './ip/city.db';
export { ipLocatorFromConfig } from './ip/ip.providers';
export { parseIp, isPublic } from './ip/ip-address';
// Loopback fakes of the outside services (provider contracts, VIES, DNS), for the apps' e2e tests.
export { fakeGoogle, fakeDeepl, fakeLibreTranslate, FakeProvider } from './translator/fake-providers.testing';
export { fakeVies, FakeVies } from './vies/fake-vies.testing';
export { fakeDns, FakeDns, reverseName } from './ip/fake-dns.testing';
