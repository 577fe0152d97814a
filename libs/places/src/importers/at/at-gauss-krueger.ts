import proj4 from 'proj4';
import type { LatLng } from '../../geo/sjtsk';

/**
 * MGI (Bessel 1841) -> WGS84/ETRS89 as BEV and the EPSG dataset publish it for Austria:
 * transformation EPSG:1618 "MGI to WGS 84 (3)", 7 parameters in the position-vector convention
 * (the one `+towgs84` uses), stated accuracy about 1 m over the whole country. Older tools copy
 * 601.705,84.263,485.227,... (coordinate-frame, signs flipped), which lands metres off.
 */
export const MGI_TOWGS84 = '577.326,90.129,463.919,5.137,1.474,5.297,2.4232';

/** The three Gauss-Krueger meridian strips of the BEV address register (`EPSG` column of ADRESSE and GEBAEUDE). */
export const AT_GK_MERIDIANS: Record<number, number> = {
  31254: 10 + 1 / 3, // MGI / Austria GK West (M28)
  31255: 13 + 1 / 3, // MGI / Austria GK Central (M31)
  31256: 16 + 1 / 3, // MGI / Austria GK East (M34)
};

/** proj4 definition of one strip: false northing -5 000 000 m, so HW is the distance north of 45 degrees, roughly. */
export function atGkProj4(epsg: number): string {
  const lon0 = AT_GK_MERIDIANS[epsg];
  if (lon0 === undefined) throw new Error(`EPSG:${epsg} is not one of the Austrian Gauss-Krueger systems 31254, 31255, 31256`);
  return `+proj=tmerc +lat_0=0 +lon_0=${lon0} +k=1 +x_0=0 +y_0=-5000000 +ellps=bessel +towgs84=${MGI_TOWGS84} +units=m +no_defs`;
}

const converters = new Map(Object.keys(AT_GK_MERIDIANS).map((e) => [Number(e), proj4(atGkProj4(Number(e)), 'WGS84')]));

/** Austria's extent in WGS84 with a margin of a few kilometres: positions outside are data errors. */
export const AT_BOUNDS = { latMin: 46.3, latMax: 49.1, lngMin: 9.45, lngMax: 17.2 } as const;

export function isInAustria(p: LatLng): boolean {
  return p.lat >= AT_BOUNDS.latMin && p.lat <= AT_BOUNDS.latMax && p.lng >= AT_BOUNDS.lngMin && p.lng <= AT_BOUNDS.lngMax;
}

/** RW (easting) and HW (northing) in metres in the given strip -> WGS84; throws on an EPSG code outside the three. */
export function atGkToWgs84(epsg: number, rw: number, hw: number): LatLng {
  const c = converters.get(epsg);
  if (!c) throw new Error(`EPSG:${epsg} is not one of the Austrian Gauss-Krueger systems 31254, 31255, 31256`);
  const [lng, lat] = c.forward([rw, hw]);
  return { lat: lat!, lng: lng! };
}

export function wgs84ToAtGk(epsg: number, lat: number, lng: number): { rw: number; hw: number } {
  const c = converters.get(epsg);
  if (!c) throw new Error(`EPSG:${epsg} is not one of the Austrian Gauss-Krueger systems 31254, 31255, 31256`);
  const [rw, hw] = c.inverse([lng, lat]);
  return { rw: rw!, hw: hw! };
}

/**
 * The position of one register row, or why it has none: the three columns as written
 * (`80893.30`; a decimal comma is accepted), the strip checked, the result inside Austria.
 */
export function rowPosition(epsgText: string, rwText: string, hwText: string): LatLng | string {
  if (!rwText.trim() && !hwText.trim()) return 'no coordinates (RW/HW empty)';
  const epsg = Number(epsgText);
  if (!AT_GK_MERIDIANS[epsg]) return `EPSG "${epsgText}" is not 31254, 31255 or 31256`;
  const rw = Number(rwText.trim().replace(',', '.'));
  const hw = Number(hwText.trim().replace(',', '.'));
  if (!rwText.trim() || !hwText.trim() || !Number.isFinite(rw) || !Number.isFinite(hw)) return `RW/HW "${rwText}"/"${hwText}" are not numbers`;
  const p = atGkToWgs84(epsg, rw, hw);
  if (!isInAustria(p)) return `RW/HW ${rwText}/${hwText} (EPSG:${epsg}) lie outside Austria (${p.lat.toFixed(5)}, ${p.lng.toFixed(5)})`;
  return p;
}
