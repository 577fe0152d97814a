export * from './data-source.options';
