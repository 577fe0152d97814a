// Moved to @lookup/shared/geoip (places locates callers for `around_latlng_via_ip`); re-exported for utils.
export { IpLocator, IpLocation, toIpLocation } from '@lookup/shared/geoip';
