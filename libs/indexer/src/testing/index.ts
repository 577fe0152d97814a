// Test helpers of the indexer for other projects' tests (`@lookup/indexer/testing`; never built).
export * from './readme-commands';
