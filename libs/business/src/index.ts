export * from './business.module';
export * from './business.service';
export * from './domain/business.doc';
export * from './store/business.store';
export * from './store/business-store.factory';
export * from './store/sqlite-business.store';
export * from './store/opensearch-business.store';
export * from './importers/business-import';
export * from './importers/res-csv.reader';
export * from './importers/ares-json.reader';
export * from './importers/rpo-json.reader';
export * from './importers/ruian-address.index';
// Test support: the fixture register in the official formats (used by the apps' e2e tests).
export * from './fixtures/business-fixture.builder';
