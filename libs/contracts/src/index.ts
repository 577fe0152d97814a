export * from './errors';
export * from './subjects';
export * from './countries';
export * from './validation';
export * from './places/catalogue.dto';
export * from './places/place.types';
export * from './places/detail.dto';
