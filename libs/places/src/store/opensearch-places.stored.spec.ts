import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { fromStored, toStored } from './opensearch-places.stored';

describe('OpenSearch stored source <-> PlaceDoc', () => {
  it('gives back every PlaceDoc field, in its order, without the index-only fields', () => {
    // A distinct value in every field, so a field the literal forgets or swaps shows.
    const doc = Object.fromEntries(Object.keys(emptyDoc('CZ', 'address', 'cz_a1', 'x')).map((k, i) => [k, `v${i}`])) as unknown as PlaceDoc;
    const stored = toStored({ ...doc, lat: 49.9, lng: 17.9, weight: 3 });
    expect(stored.location).toEqual({ lat: 49.9, lon: 17.9 });
    const back = fromStored(stored);
    expect(back).toEqual({ ...doc, lat: 49.9, lng: 17.9, weight: 3 });
    expect(Object.keys(back)).toEqual(Object.keys(doc));
  });

  it('reads a field an older index lacks as null, as SQLite does', () => {
    const { city_district: _c, postal_place: _p, ...old } = toStored(emptyDoc('CZ', 'municipality', 'cz_m1', 'Opava'));
    expect(fromStored(old as never)).toEqual(emptyDoc('CZ', 'municipality', 'cz_m1', 'Opava'));
  });
});
