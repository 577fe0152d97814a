export * from './at-gauss-krueger';
export * from './at-address-import';
export { AT_BUNDESLAENDER } from './at-address.builder';
export { BEV_TABLES } from './bev-tables';
