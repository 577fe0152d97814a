export * from './dist-build';
export * from './ports';
export * from './process-wait';
export * from './nats-server';
export * from './postgres-cluster';
export * from './opensearch-node';
export * from './traffic';
export * from './node-app';
