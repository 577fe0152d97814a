import { isJtskInRange, jtskToWgs84, wgs84ToJtsk } from './sjtsk';

/**
 * References computed with PROJ itself (cs2cs 9, Debian proj-bin) from the same definition:
 *   cs2cs -f %.9f <SJTSK_PROJ4> +to +proj=longlat +datum=WGS84 +no_defs   on (-Y -X)
 * and the inverse for the WGS84 rows.
 */
const JTSK_TO_WGS84: { x: number; y: number; lat: number; lng: number; where: string }[] = [
  { x: 1166540.03, y: 515561.05, lat: 49.217631745, lng: 17.743926698, where: 'Želechovice nad Dřevnicí (RUIAN row)' },
  { x: 1043000.0, y: 743000.0, lat: 50.087346615, lng: 14.418593891, where: 'Praha' },
  { x: 1100000.0, y: 470000.0, lat: 49.850013682, lng: 18.289074948, where: 'Ostrava area' },
  { x: 1160000.0, y: 598000.0, lat: 49.201998257, lng: 16.609095125, where: 'Brno area' },
  { x: 1010000.0, y: 870000.0, lat: 50.21124665, lng: 12.592640184, where: 'west Bohemia' },
  { x: 1280000.0, y: 300000.0, lat: 48.340703273, lng: 20.781919039, where: 'east Slovakia' },
];

const WGS84_TO_JTSK = [
  { lat: 50.087, lng: 14.421, x: 1043061.6652, y: 742834.684 },
  { lat: 49.0, lng: 18.0, x: 1192339.9898, y: 499143.4123 },
];

function metres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dy = (a.lat - b.lat) * 111_320;
  const dx = (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

describe('S-JTSK <-> WGS84', () => {
  it.each(JTSK_TO_WGS84)('matches PROJ within 0.5 m: $where', ({ x, y, lat, lng }) => {
    expect(metres(jtskToWgs84(x, y), { lat, lng })).toBeLessThan(0.5);
  });

  it('gives the same point for the EPSG:5514 negated numbers', () => {
    const pos = jtskToWgs84(1166540.03, 515561.05);
    expect(jtskToWgs84(-1166540.03, -515561.05)).toEqual(pos);
  });

  it.each(WGS84_TO_JTSK)('inverse matches PROJ within 0.5 m at $lat,$lng', ({ lat, lng, x, y }) => {
    const got = wgs84ToJtsk(lat, lng);
    expect(Math.hypot(got.x - x, got.y - y)).toBeLessThan(0.5);
  });

  it('round-trips to the centimetre', () => {
    const { lat, lng } = jtskToWgs84(1100000, 470000);
    const back = wgs84ToJtsk(lat, lng);
    expect(Math.abs(back.x - 1100000)).toBeLessThan(0.01);
    expect(Math.abs(back.y - 470000)).toBeLessThan(0.01);
  });

  it('knows the plausible range of CZ/SK coordinates in either sign', () => {
    expect(isJtskInRange(1166540.03, 515561.05)).toBe(true);
    expect(isJtskInRange(-1166540.03, -515561.05)).toBe(true);
    expect(isJtskInRange(515561.05, 1166540.03)).toBe(false);
    expect(isJtskInRange(0, 0)).toBe(false);
  });
});
