export * from './opensearch.client';
export * from './index-alias';
export * from './bulk';
export * from './sqlite';
export * from './search-direct';
export * from './data-stamp';
export * from './packed-hits';
export * from './import-lease';
