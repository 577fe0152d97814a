import { emptyDoc, PlaceDoc } from '../../domain/place.doc';
import { HardGoldenCollector, typo } from './hard-golden.generator';

/** Invented register rows: two same-name municipalities and a street with both number kinds. */
function docs(): PlaceDoc[] {
  const town = (id: string, name: string, county: string): PlaceDoc => ({ ...emptyDoc('CZ', 'municipality', `cz_m${id}`, name), municipality_id: `cz_m${id}`, municipality: name, county });
  const out: PlaceDoc[] = [town('1', 'Dolní Lhota', 'Opava'), town('2', 'Dolní Lhota', 'Zlín'), town('3', 'Kamenice', 'Jihlava')];
  for (let s = 0; s < 400; s++) {
    for (let n = 1; n <= 4; n++) {
      const d = emptyDoc('CZ', 'address', `cz_a${s}_${n}`, '');
      out.push({ ...d, municipality_id: 'cz_m3', municipality: 'Kamenice', district: 'Kamenice', street: `Zahradníkova${s}`, street_number: String(100 + n), number_kind: 'cp', building_number: String(n), postal_code: '58601' });
    }
  }
  return out;
}

describe('harder golden set generator', () => {
  it('builds the same queries from the same register (fixed seed)', () => {
    const build = () => {
      const c = new HardGoldenCollector();
      c.observe(docs());
      return c.build();
    };
    const a = build();
    expect(a.length).toBeGreaterThan(0);
    expect(build()).toEqual(a);
    expect(a.filter((q) => q.type === 'same-name').map((q) => q.expect['county']).sort()).toEqual(['Opava', 'Zlín']);
    for (const q of a.filter((x) => x.type === 'ul-street')) expect(q.params['query']).toMatch(/^ul\. Zahradníkova\d+ \d+, Kamenice$/);
  });

  it('makes one edit past the first letter', () => {
    let seed = 0.1;
    const rnd = () => (seed = (seed * 9301 + 0.49297) % 1);
    for (let i = 0; i < 50; i++) {
      const t = typo('kamenice', rnd);
      expect(t[0]).toBe('k');
      expect(t).not.toBe('kamenice');
    }
  });
});
