// Moved to @lookup/shared/geoip with the locator that uses it.
export { timezoneFor } from '@lookup/shared/geoip';
