/**
 * The 26 cantons by the abbreviation the address register writes in COM_CANTON, with their
 * official name in the canton's own language(s) (BFS). The region name with or without a GeoNames
 * catalogue: the catalogue names its cantons from this table too (chRegionName), same id `ch_r<abbr>`.
 */
export const CH_CANTONS: Readonly<Record<string, string>> = {
  AG: 'Aargau',
  AI: 'Appenzell Innerrhoden',
  AR: 'Appenzell Ausserrhoden',
  BE: 'Bern / Berne',
  BL: 'Basel-Landschaft',
  BS: 'Basel-Stadt',
  FR: 'Fribourg / Freiburg',
  GE: 'Genève',
  GL: 'Glarus',
  GR: 'Graubünden / Grigioni / Grischun',
  JU: 'Jura',
  LU: 'Luzern',
  NE: 'Neuchâtel',
  NW: 'Nidwalden',
  OW: 'Obwalden',
  SG: 'St. Gallen',
  SH: 'Schaffhausen',
  SO: 'Solothurn',
  SZ: 'Schwyz',
  TG: 'Thurgau',
  TI: 'Ticino',
  UR: 'Uri',
  VD: 'Vaud',
  VS: 'Valais / Wallis',
  ZG: 'Zug',
  ZH: 'Zürich',
};
