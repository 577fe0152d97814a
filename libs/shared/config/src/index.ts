export * from './app-config';
export * from './config.module';
export * from './project-root';
export * from './nest-logger';
export * from './loopback';
