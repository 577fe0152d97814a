export * from './import.command';
export * from './datasets';
export * from './pipeline';
export * from './cli';
export * from './download';
export * from './scheduler';
export * from './changes';
export * from './app/indexer-app';
