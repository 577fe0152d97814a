export * from './sk-change-applier';
export * from './change-batch-runner';
export * from './ruian-change-applier';
