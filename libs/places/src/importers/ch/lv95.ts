import proj4 from 'proj4';
import { round7 } from '../address-aggregates';

/**
 * CH1903+/LV95 (EPSG:2056): Swiss oblique Mercator on Bessel with the 3-parameter shift that
 * swisstopo publishes for CH1903+ -> ETRS89 (good to about 1 m; ETRS89 = WGS84 at that level).
 */
export const LV95_PROJ4 =
  '+proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1 +x_0=2600000 +y_0=1200000 ' +
  '+ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs';

/** Where LV95 coordinates of Switzerland and Liechtenstein lie, with a margin. */
export const LV95_BOUNDS = { eMin: 2_480_000, eMax: 2_840_000, nMin: 1_070_000, nMax: 1_300_000 } as const;

const converter = proj4(LV95_PROJ4, 'WGS84');

export function lv95ToWgs84(easting: number, northing: number): { lat: number; lng: number } {
  const [lng, lat] = converter.forward([easting, northing]);
  return { lat: round7(lat!), lng: round7(lng!) };
}

export function isLv95InRange(easting: number, northing: number): boolean {
  const b = LV95_BOUNDS;
  return easting >= b.eMin && easting <= b.eMax && northing >= b.nMin && northing <= b.nMax;
}
