import proj4 from 'proj4';

/**
 * S-JTSK / Krovak with the 7-parameter Bessel -> WGS84 shift. The often-copied epsg.io string
 * is off by up to 16 m, enough to break a 10 m reverse search (compat-notes).
 */
export const SJTSK_PROJ4 =
  '+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 ' +
  '+ellps=bessel +towgs84=572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378 +units=m +no_defs';

/** Czech/Slovak practice: X and Y positive, X the larger (north-south) axis. */
export interface JtskPoint {
  x: number;
  y: number;
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** Where positive S-JTSK coordinates of the Czech and Slovak territory lie, with a margin. */
export const JTSK_BOUNDS = { xMin: 900_000, xMax: 1_300_000, yMin: 150_000, yMax: 950_000 } as const;

const converter = proj4(SJTSK_PROJ4, 'WGS84');

/**
 * Either sign convention (positive practice or EPSG:5514's negated numbers) gives the same
 * point; proj4's Krovak works on (easting, northing) = (-Y, -X).
 */
export function jtskToWgs84(x: number, y: number): LatLng {
  const [lng, lat] = converter.forward([-Math.abs(y), -Math.abs(x)]);
  return { lat: lat!, lng: lng! };
}

export function wgs84ToJtsk(lat: number, lng: number): JtskPoint {
  const [e, n] = converter.inverse([lng, lat]);
  return { x: -n!, y: -e! };
}

/** True when |x|, |y| lie in the S-JTSK range of CZ/SK with X the larger axis. */
export function isJtskInRange(x: number, y: number): boolean {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  return ax >= JTSK_BOUNDS.xMin && ax <= JTSK_BOUNDS.xMax && ay >= JTSK_BOUNDS.yMin && ay <= JTSK_BOUNDS.yMax;
}
