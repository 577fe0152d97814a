import proj4 from 'proj4';
import { atGkToWgs84, AT_GK_MERIDIANS, isInAustria, MGI_TOWGS84, rowPosition, wgs84ToAtGk } from './at-gauss-krueger';

function metres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dy = (a.lat - b.lat) * 111_320;
  const dx = (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

/**
 * An independent reference for the whole chain, written from the textbook formulas (EPSG
 * Guidance Note 7-2 / Snyder, "Map Projections - A Working Manual", p. 63 inverse transverse
 * Mercator; geocentric conversion; 7-parameter position-vector Helmert; Bowring's inverse), so
 * the test does not compare proj4 with itself.
 */
function referenceGkToWgs84(epsg: number, rw: number, hw: number): { lat: number; lng: number } {
  const rad = Math.PI / 180;
  const [a, f] = [6377397.155, 1 / 299.1528128]; // Bessel 1841
  const e2 = f * (2 - f);
  const ep2 = e2 / (1 - e2);
  const y = hw + 5_000_000;
  const mu = y / (a * (1 - e2 / 4 - (3 * e2 ** 2) / 64 - (5 * e2 ** 3) / 256));
  const e1 = (1 - Math.sqrt(1 - e2)) / (1 + Math.sqrt(1 - e2));
  const phi1 =
    mu + ((3 * e1) / 2 - (27 * e1 ** 3) / 32) * Math.sin(2 * mu) + ((21 * e1 ** 2) / 16 - (55 * e1 ** 4) / 32) * Math.sin(4 * mu) +
    ((151 * e1 ** 3) / 96) * Math.sin(6 * mu) + ((1097 * e1 ** 4) / 512) * Math.sin(8 * mu);
  const [s1, c1, t1] = [Math.sin(phi1), Math.cos(phi1), Math.tan(phi1)];
  const C1 = ep2 * c1 ** 2;
  const T1 = t1 ** 2;
  const N1 = a / Math.sqrt(1 - e2 * s1 ** 2);
  const R1 = (a * (1 - e2)) / (1 - e2 * s1 ** 2) ** 1.5;
  const D = rw / N1;
  const phi = phi1 - ((N1 * t1) / R1) * (D ** 2 / 2 - ((5 + 3 * T1 + 10 * C1 - 4 * C1 ** 2 - 9 * ep2) * D ** 4) / 24 + ((61 + 90 * T1 + 298 * C1 + 45 * T1 ** 2 - 252 * ep2 - 3 * C1 ** 2) * D ** 6) / 720);
  const lam = AT_GK_MERIDIANS[epsg]! * rad + (D - ((1 + 2 * T1 + C1) * D ** 3) / 6 + ((5 - 2 * C1 + 28 * T1 - 3 * C1 ** 2 + 8 * ep2 + 24 * T1 ** 2) * D ** 5) / 120) / c1;
  // Bessel geodetic -> geocentric, h = 0
  const N = a / Math.sqrt(1 - e2 * Math.sin(phi) ** 2);
  const X = N * Math.cos(phi) * Math.cos(lam);
  const Y = N * Math.cos(phi) * Math.sin(lam);
  const Z = N * (1 - e2) * Math.sin(phi);
  // Position-vector Helmert (EPSG:1618)
  const [tx, ty, tz, rxs, rys, rzs, ppm] = MGI_TOWGS84.split(',').map(Number) as [number, number, number, number, number, number, number];
  const sec = rad / 3600;
  const [rx, ry, rz, m] = [rxs * sec, rys * sec, rzs * sec, 1 + ppm * 1e-6];
  const X2 = tx + m * (X - rz * Y + ry * Z);
  const Y2 = ty + m * (rz * X + Y - rx * Z);
  const Z2 = tz + m * (-ry * X + rx * Y + Z);
  // WGS84 geocentric -> geodetic (Bowring)
  const [A, F] = [6378137, 1 / 298.257223563];
  const E2 = F * (2 - F);
  const B = A * (1 - F);
  const EP2 = (A ** 2 - B ** 2) / B ** 2;
  const p = Math.hypot(X2, Y2);
  const th = Math.atan2(Z2 * A, p * B);
  const lat = Math.atan2(Z2 + EP2 * B * Math.sin(th) ** 3, p - E2 * A * Math.cos(th) ** 3);
  return { lat: lat / rad, lng: Math.atan2(Y2, X2) / rad };
}

describe('MGI Gauss-Krueger (EPSG:31254/31255/31256) -> WGS84', () => {
  it('matches a BEV row published with its WGS84 position (ideal-postcodes BEV dataset docs, ADRCD 5000090, Innsbruck) within 0.05 m', () => {
    const published = { lat: 47.240128940538256, lng: 11.401418155046553 };
    expect(metres(atGkToWgs84(31254, 80893.3, 234024.51), published)).toBeLessThan(0.05);
  });

  it.each([
    { epsg: 31254, rw: 80893.3, hw: 234024.51, where: 'Innsbruck (M28)' },
    { epsg: 31254, rw: -60000, hw: 240000, where: 'Vorarlberg (M28)' },
    { epsg: 31255, rw: -22000, hw: 297000, where: 'Salzburg (M31)' },
    { epsg: 31255, rw: 60000, hw: 180000, where: 'Villach (M31)' },
    { epsg: 31256, rw: 2800, hw: 341000, where: 'Wien (M34)' },
    { epsg: 31256, rw: -70000, hw: 210000, where: 'Graz (M34)' },
  ])('agrees with the textbook chain within 0.1 m: $where', ({ epsg, rw, hw }) => {
    const got = atGkToWgs84(epsg, rw, hw);
    expect(isInAustria(got)).toBe(true);
    expect(metres(got, referenceGkToWgs84(epsg, rw, hw))).toBeLessThan(0.1);
  });

  it('applies the datum shift: Bessel coordinates taken as WGS84 would be well over 50 m off', () => {
    const noShift = proj4(`+proj=tmerc +lat_0=0 +lon_0=${16 + 1 / 3} +k=1 +x_0=0 +y_0=-5000000 +ellps=bessel +units=m +no_defs`, 'WGS84');
    const [lng, lat] = noShift.forward([2800, 341000]);
    expect(metres(atGkToWgs84(31256, 2800, 341000), { lat: lat!, lng: lng! })).toBeGreaterThan(50);
  });

  it('round-trips to the centimetre in each strip', () => {
    for (const epsg of [31254, 31255, 31256]) {
      const { lat, lng } = atGkToWgs84(epsg, 1000, 250000);
      const back = wgs84ToAtGk(epsg, lat, lng);
      expect(Math.abs(back.rw - 1000) + Math.abs(back.hw - 250000)).toBeLessThan(0.01);
    }
  });

  it('turns a row into a position or a reason', () => {
    const p = rowPosition('31256', '2800.00', '341000,00');
    expect(typeof p).toBe('object');
    expect(rowPosition('4326', '16.37', '48.2')).toBe('EPSG "4326" is not 31254, 31255 or 31256');
    expect(rowPosition('31256', 'abc', '341000')).toBe('RW/HW "abc"/"341000" are not numbers');
    expect(rowPosition('31256', '', '')).toBe('no coordinates (RW/HW empty)');
    expect(rowPosition('31256', '2800', '')).toMatch(/are not numbers/);
    expect(rowPosition('31256', '2800', '-900000')).toMatch(/lie outside Austria/);
    expect(() => atGkToWgs84(31287, 0, 0)).toThrow(/not one of the Austrian Gauss-Krueger systems/);
  });
});
