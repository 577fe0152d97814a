export * from './data-source.options';
export * from './ensure-database';
