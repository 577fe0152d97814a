export * from './data-source.options';
export * from './ensure-database';
export * from './database-errors';
