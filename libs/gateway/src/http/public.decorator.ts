import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'lookup:public';
/** Routes without an API key: health, metrics, docs. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
