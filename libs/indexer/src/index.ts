export * from './import.command';
export * from './datasets';
