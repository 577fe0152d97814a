export { chPlaceDocs, CH_ENTRY } from './ch-import';
export { readChAddressCsv, CH_ADDRESS_COLUMNS, CH_REQUIRED_COLUMNS } from './ch-address-csv.reader';
export type { ChAddressRow, ChRowError } from './ch-address-csv.reader';
export { ChAddressBuilder } from './ch-address.builder';
export { LV95_PROJ4, LV95_BOUNDS, lv95ToWgs84, isLv95InRange } from './lv95';
export { CH_CANTONS } from './cantons';
