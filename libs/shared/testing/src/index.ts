export * from './servers';
export * from './describe-with';
export * from './shared-data';
export * from './http';
export * from './tmp';
export * from './suites/gateway-contract.suite';
export * from './postgres';
