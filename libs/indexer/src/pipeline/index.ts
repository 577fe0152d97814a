export * from './importers';
export * from './verify';
export * from './dataset-runner';
export * from './indexer-app';
