export * from './geonames-names';
export * from './geonames-catalogue';
export * from './geonames-place-docs';
