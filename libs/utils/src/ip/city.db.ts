// Moved to @lookup/shared/geoip (places needs the same reader); kept here so utils code keeps its imports.
export { CityDb, CityRecord, defaultCityDbPaths } from '@lookup/shared/geoip';
