// IP geolocation (DB-IP city MMDB), shared because two areas need it: utils (the IP details
// route) and places (`around_latlng_via_ip`); area libs do not import each other.
export { CityDb, CityRecord, defaultCityDbPaths } from './city.db';
export { IpLocator, IpLocation, toIpLocation } from './ip-locator';
export { parseIp, isPublic, ParsedIp } from './ip-address';
export { timezoneFor } from './timezone';
export { ipLocatorFromConfig } from './ip-locator.providers';
