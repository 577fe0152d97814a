export * from './metrics.constants';
export * from './metrics.registry';
export * from './http-metrics';
export * from './transport-metrics';
export * from './engine-metrics';
export * from './indexer-metrics';
export * from './rpc-metrics.interceptor';
