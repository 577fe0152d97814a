import { docOf, emptyDoc, PlaceDoc } from './place.doc';

describe('docOf: a stored document back with its nulls', () => {
  const full: PlaceDoc = {
    ...emptyDoc('CZ', 'address', 'cz_a1', 'Lihovarská 1/2, Praha'),
    region_id: 'cz_r1', region: 'Praha', municipality: 'Praha', street: 'Lihovarská', street_number: '1', number_kind: 'cp',
    building_number: '2', postal_code: '19000', lat: 50.1, lng: 14.5, weight: 0, city_district: 'Praha 9', postal_place: 'Praha 9',
  };
  const stored = (d: PlaceDoc): Partial<PlaceDoc> => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null))));

  it('gives back every field, the missing ones as null, the values kept (0 and empty text too)', () => {
    expect(docOf(stored(full))).toEqual(full);
    const bare = emptyDoc('SK', 'municipality', 'sk_m1', '');
    expect(docOf(stored(bare))).toEqual(bare);
  });

  it('builds every document with the same fields in the same order, whichever were stored', () => {
    const order = Object.keys(emptyDoc('CZ', 'address', 'x', 'x'));
    const partials: Array<Partial<PlaceDoc>> = [stored(full), stored(emptyDoc('PL', 'street', 'pl_s1', 'Długa')), { lat: 1, lng: 2, place_id: 'a', country: 'AT', object: 'address', name: 'n' }];
    for (const p of partials) expect(Object.keys(docOf(p))).toEqual(order);
  });
});
