export * from './fetch-dataset';
