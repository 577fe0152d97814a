/** The gateway's TypeORM connection name (intl has its own in the same database). */
export const GATEWAY_DB = 'gateway';
