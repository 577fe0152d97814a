export * from './source';
export * from './zip';
export * from './lines';
export * from './csv';
export * from './xml';
