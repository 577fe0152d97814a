export * from './service-health.controller';
export * from './service-app';
export * from './seeded-random';
export * from './import-status';
