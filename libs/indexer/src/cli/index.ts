export * from './import-args';
export * from './dataset-formats';
export * from './progress';
export * from './dataset-import';
