import proj4 from 'proj4';
import { round7 } from '../address-aggregates';

/**
 * ETRF2000-PL / CS92 (EPSG:2180), the official definition: transverse Mercator on GRS80,
 * central meridian 19°E, scale 0.9993, false easting 500 000 m, false northing -5 300 000 m.
 * ETRF2000 and WGS84 agree to a few centimetres, far below what an address needs.
 */
export const CS92_PROJ4 = '+proj=tmerc +lat_0=0 +lon_0=19 +k=0.9993 +x_0=500000 +y_0=-5300000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

/** Where CS92 coordinates of Poland lie (easting, northing), with a margin of some kilometres. */
export const CS92_BOUNDS = { eMin: 140_000, eMax: 880_000, nMin: 120_000, nMax: 800_000 } as const;

/**
 * The order of the two numbers of a `gml:pos`. EPSG's own axis order for 2180 is northing first,
 * and GML writers that name the CRS by URN (`urn:ogc:def:crs:EPSG::2180`, the 2012 PRG files)
 * follow it; the short `EPSG:2180` form traditionally means easting first, which is what the
 * 2021 PRG files write.
 */
export type AxisOrder = 'northing-easting' | 'easting-northing';

export function axisOrderOf(srsName: string | null, fallback: AxisOrder): AxisOrder {
  if (!srsName) return fallback;
  if (/^urn:ogc:def:crs:EPSG:[\d.]*:2180$/i.test(srsName) || /opengis\.net\/def\/crs\/EPSG\/\d+\/2180$/i.test(srsName)) return 'northing-easting';
  if (/^EPSG:2180$/i.test(srsName)) return 'easting-northing';
  return fallback;
}

const converter = proj4(CS92_PROJ4, 'WGS84');

export function cs92ToWgs84(easting: number, northing: number): { lat: number; lng: number } {
  const [lng, lat] = converter.forward([easting, northing]);
  return { lat: round7(lat!), lng: round7(lng!) };
}

export function wgs84ToCs92(lat: number, lng: number): { easting: number; northing: number } {
  const [easting, northing] = converter.inverse([lng, lat]);
  return { easting: easting!, northing: northing! };
}

export function isCs92InRange(easting: number, northing: number): boolean {
  const b = CS92_BOUNDS;
  return easting >= b.eMin && easting <= b.eMax && northing >= b.nMin && northing <= b.nMax;
}

/**
 * A `gml:pos` text in the given axis order to WGS84, or the reason it cannot be one
 * (not two numbers, or outside Poland, which is what a swapped axis order also gives).
 */
export function parseCs92Pos(pos: string, order: AxisOrder): { lat: number; lng: number } | string {
  const parts = pos.trim().split(/\s+/);
  if (parts.length < 2 || parts.some((p) => !/^[+-]?\d+(\.\d+)?$/.test(p))) return `position "${pos.trim()}" is not two numbers`;
  const [a, b] = parts.map(Number) as [number, number];
  const [easting, northing] = order === 'easting-northing' ? [a, b] : [b, a];
  if (!isCs92InRange(easting, northing)) return `position "${pos.trim()}" (${order}) is outside Poland`;
  return cs92ToWgs84(easting, northing);
}
