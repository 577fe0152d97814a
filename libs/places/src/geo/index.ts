export * from './sjtsk';
