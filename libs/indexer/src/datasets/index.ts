export * from './dataset-event';
export * from './datasets.constants';
export * from './dataset-stream';
export * from './dataset-consumer';
export * from './import-progress';
