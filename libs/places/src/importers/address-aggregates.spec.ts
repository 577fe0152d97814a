import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { AddressAggregates } from './address-aggregates';

let seq = 0;
function addr(fields: Partial<PlaceDoc>): PlaceDoc {
  return { ...emptyDoc('CZ', 'address', `cz_a${++seq}`, 'x'), ...fields };
}

const A = { municipality_id: 'cz_m1', municipality: 'Alfa', county_id: 'cz_c1', county: 'Okres', region_id: 'cz_r1', region: 'Kraj' };
const B = { municipality_id: 'cz_m2', municipality: 'Beta', county_id: 'cz_c1', county: 'Okres', region_id: 'cz_r1', region: 'Kraj' };

describe('AddressAggregates', () => {
  it('gives a postal code the municipality of most of its addresses and the mean position of the located ones', () => {
    const agg = new AddressAggregates('CZ');
    agg.add(addr({ ...A, postal_code: '74601', lat: 50, lng: 14 }));
    agg.add(addr({ ...B, postal_code: '74601', lat: 49, lng: 15 }));
    agg.add(addr({ ...B, postal_code: '74601', lat: null, lng: null }));
    const postal = [...agg.docs()].find((d) => d.object === 'postal_code')!;
    expect(postal).toMatchObject({ place_id: 'cz_p74601', name: '74601', postal_code: '74601', municipality_id: 'cz_m2', municipality: 'Beta', weight: 3, lat: 49.5, lng: 14.5 });
  });

  it('a street in two parts of the municipality has no single district; its postal code is the most common one', () => {
    const agg = new AddressAggregates('CZ');
    const s = { ...A, street: 'Hlavní', street_id: 'cz_s9' };
    agg.add(addr({ ...s, district: 'Horní', postal_code: '11111', lat: 50, lng: 14 }));
    agg.add(addr({ ...s, district: 'Dolní', postal_code: '22222', lat: 50, lng: 14 }));
    agg.add(addr({ ...s, district: 'Dolní', postal_code: '22222', lat: 50, lng: 14 }));
    const street = [...agg.docs()].find((d) => d.object === 'street')!;
    expect(street).toMatchObject({ place_id: 'cz_s9', name: 'Hlavní', street: 'Hlavní', district: null, postal_code: '22222', weight: 3, municipality: 'Alfa', county: 'Okres' });
  });

  it('municipality docs keep the catalogue doc (id, name, county) and get centroid and weight; the catalogue doc itself is not changed', () => {
    const catalogue = { ...emptyDoc('CZ', 'municipality', 'cz_m1', 'Alfa (catalogue)'), county_id: 'cz_c1', county: 'Okres', lat: 1, lng: 1 };
    const agg = new AddressAggregates('CZ', (id) => (id === 'cz_m1' ? catalogue : undefined));
    agg.add(addr({ ...A, lat: 50, lng: 14 }));
    agg.add(addr({ ...A, lat: 51, lng: 16 }));
    agg.add(addr({ ...B, lat: 49, lng: 17 }));
    const ms = [...agg.docs()].filter((d) => d.object === 'municipality');
    expect(ms.map((m) => [m.place_id, m.name, m.weight, m.lat, m.lng, m.county_id])).toEqual([
      ['cz_m1', 'Alfa (catalogue)', 2, 50.5, 15, 'cz_c1'],
      ['cz_m2', 'Beta', 1, 49, 17, 'cz_c1'],
    ]);
    expect(catalogue.lat).toBe(1);
    expect(agg.counts).toEqual({ streets: 0, postalCodes: 0, municipalities: 2 });
  });

  it("a catalogue municipality, county or region none of whose addresses has a position keeps the catalogue's position", () => {
    const known = new Map([
      ['cz_m1', { ...emptyDoc('CZ', 'municipality', 'cz_m1', 'Alfa'), county_id: 'cz_c1', region_id: 'cz_r1', lat: 49.1, lng: 17.2 }],
      ['cz_c1', { ...emptyDoc('CZ', 'county', 'cz_c1', 'Okres'), lat: 49.3, lng: 17.4 }],
    ]);
    const agg = new AddressAggregates('CZ', (id) => known.get(id));
    agg.add(addr({ ...A, street: 'Nová', street_id: 'cz_s1' }));
    agg.add(addr({ ...A }));
    const docs = new Map([...agg.docs()].map((d) => [d.place_id, d]));
    expect([docs.get('cz_m1'), docs.get('cz_c1')].map((d) => [d!.weight, d!.lat, d!.lng])).toEqual([
      [2, 49.1, 17.2],
      [2, 49.3, 17.4],
    ]);
    // Not in the catalogue: no position to keep.
    expect([docs.get('cz_r1'), docs.get('cz_s1')].map((d) => [d!.weight, d!.lat, d!.lng])).toEqual([
      [2, null, null],
      [1, null, null],
    ]);
  });

  it('a municipality or street without any located address keeps lat/lng null', () => {
    const agg = new AddressAggregates('CZ');
    agg.add(addr({ ...A, street: 'Nová', street_id: 'cz_s1' }));
    for (const d of agg.docs()) expect([d.lat, d.lng, d.weight]).toEqual([null, null, 1]);
  });
});
