export * from './business.module';
