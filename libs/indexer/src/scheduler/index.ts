export * from './scheduler-sources';
export * from './dataset-scheduler';
export * from './scheduler.factory';
