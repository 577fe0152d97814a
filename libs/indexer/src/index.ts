export * from './import.command';
