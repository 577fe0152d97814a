// Test helpers of the indexer for other projects' tests (`@lookup/indexer/testing`; never built).
export * from './readme-commands';
export * from './indexer-process';
export * from './sk-answers';
