// Moved to @lookup/shared/geoip (places needs the same parser); kept here so utils code keeps its imports.
export { parseIp, isPublic, ParsedIp } from '@lookup/shared/geoip';
