import { axisOrderOf, cs92ToWgs84, parseCs92Pos, wgs84ToCs92 } from './cs92';

/**
 * EPSG:2180 forward, written out independently of proj4 from the EPSG Guidance Note 7-2
 * transverse Mercator series (method 9807) with the official 2180 parameters (GRS80,
 * lon0 19°, k0 0.9993, FE 500 000, FN -5 300 000). The series is good to millimetres this
 * close to the central meridian, so it checks our definition, not proj4 against itself.
 */
function cs92Forward(latDeg: number, lngDeg: number): { easting: number; northing: number } {
  const a = 6378137;
  const f = 1 / 298.257222101;
  const e2 = f * (2 - f);
  const ep2 = e2 / (1 - e2);
  const [k0, fe, fn, lon0] = [0.9993, 500000, -5300000, (19 * Math.PI) / 180];
  const phi = (latDeg * Math.PI) / 180;
  const lam = (lngDeg * Math.PI) / 180;
  const T = Math.tan(phi) ** 2;
  const C = ep2 * Math.cos(phi) ** 2;
  const A = (lam - lon0) * Math.cos(phi);
  const nu = a / Math.sqrt(1 - e2 * Math.sin(phi) ** 2);
  const M =
    a *
    ((1 - e2 / 4 - (3 * e2 ** 2) / 64 - (5 * e2 ** 3) / 256) * phi -
      ((3 * e2) / 8 + (3 * e2 ** 2) / 32 + (45 * e2 ** 3) / 1024) * Math.sin(2 * phi) +
      ((15 * e2 ** 2) / 256 + (45 * e2 ** 3) / 1024) * Math.sin(4 * phi) -
      ((35 * e2 ** 3) / 3072) * Math.sin(6 * phi));
  const easting = fe + k0 * nu * (A + ((1 - T + C) * A ** 3) / 6 + ((5 - 18 * T + T ** 2 + 72 * C - 58 * ep2) * A ** 5) / 120);
  const northing =
    fn + k0 * (M + nu * Math.tan(phi) * (A ** 2 / 2 + ((5 - T + 9 * C + 4 * C ** 2) * A ** 4) / 24 + ((61 - 58 * T + T ** 2 + 600 * C - 330 * ep2) * A ** 6) / 720));
  return { easting, northing };
}

/** Metres between two WGS84 points (local flat approximation, fine below a kilometre). */
function metres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dy = (a.lat - b.lat) * 111_320;
  const dx = (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

// Places across Poland, from the central meridian to 5° off it (Szczecin, Terespol).
const POINTS = {
  'Warszawa, Pałac Kultury': { lat: 52.231838, lng: 21.005995 },
  'Szczecin, Wały Chrobrego': { lat: 53.428543, lng: 14.565253 },
  'Terespol': { lat: 52.075, lng: 23.6165 },
  'Zakopane': { lat: 49.2992, lng: 19.9496 },
  'Hel': { lat: 54.6075, lng: 18.8008 },
  'on the central meridian': { lat: 51.5, lng: 19 },
};

describe('CS92 (EPSG:2180) to WGS84', () => {
  it.each(Object.entries(POINTS))('%s: the independently projected point comes back within 0.5 m', (_, p) => {
    const { easting, northing } = cs92Forward(p.lat, p.lng);
    expect(metres(cs92ToWgs84(easting, northing), p)).toBeLessThan(0.5);
    const back = wgs84ToCs92(p.lat, p.lng);
    expect(Math.abs(back.easting - easting)).toBeLessThan(0.5);
    expect(Math.abs(back.northing - northing)).toBeLessThan(0.5);
  });

  it('puts the central meridian at easting 500 000 m', () => {
    expect(wgs84ToCs92(50, 19).easting).toBeCloseTo(500000, 3);
  });

  it('reads gml:pos in the order the srsName declares, with the schema default when it names none', () => {
    const p = POINTS['Szczecin, Wały Chrobrego'];
    const { easting, northing } = cs92Forward(p.lat, p.lng);
    const ne = parseCs92Pos(`${northing.toFixed(2)} ${easting.toFixed(2)}`, axisOrderOf('urn:ogc:def:crs:EPSG::2180', 'easting-northing'));
    const en = parseCs92Pos(`${easting.toFixed(2)} ${northing.toFixed(2)}`, axisOrderOf('EPSG:2180', 'northing-easting'));
    for (const got of [ne, en]) {
      if (typeof got === 'string') throw new Error(got);
      expect(metres(got, p)).toBeLessThan(0.5);
    }
    expect(axisOrderOf('http://www.opengis.net/def/crs/EPSG/0/2180', 'easting-northing')).toBe('northing-easting');
    expect(axisOrderOf(null, 'northing-easting')).toBe('northing-easting');
  });

  it('refuses positions that are not two numbers or lie outside Poland', () => {
    expect(parseCs92Pos('12.5', 'easting-northing')).toMatch(/not two numbers/);
    expect(parseCs92Pos('abc 487000', 'easting-northing')).toMatch(/not two numbers/);
    expect(parseCs92Pos('100 487000', 'easting-northing')).toMatch(/outside Poland/);
  });
});
