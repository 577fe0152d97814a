export * from './importers';
export * from './verify';
export * from './dataset-runner';
