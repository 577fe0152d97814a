import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SJTSK_PROJ4, wgs84ToJtsk } from '@lookup/places';

/** The page converts clicks to S-JTSK in the browser; it must use the importers' definition, not a looser copy. */
describe('demo map S-JTSK definition', () => {
  const js = readFileSync(join(__dirname, 'demo-map.js'), 'utf8');

  it('is the same proj4 string as libs/places/src/geo/sjtsk.ts', () => {
    const m = /const SJTSK_PROJ4 =\s*'([^']+)' \+\s*'([^']+)';/.exec(js);
    expect(m && m[1] + m[2]).toBe(SJTSK_PROJ4);
  });

  it('gives the server-side numbers for a point in Trnava (positive X, Y, X the larger)', () => {
    const p = wgs84ToJtsk(48.377978, 17.58836);
    expect(p.x).toBeCloseTo(1258427.45, 0);
    expect(p.y).toBeCloseTo(535676.98, 0);
  });
});
