import { PlaceDoc } from './place.doc';
import { toPlace } from './place.mapper';

const doc = (over: Partial<PlaceDoc>): PlaceDoc => ({
  place_id: 'cz_m1',
  country: 'CZ',
  object: 'municipality',
  name: 'Nová Ves',
  region_id: 'cz_r1',
  region: 'Středočeský',
  county_id: 'cz_c1',
  county: 'Mělník',
  municipality_id: 'cz_m1',
  municipality: 'Nová Ves',
  district: null,
  street: null,
  street_number: null,
  number_kind: null,
  building_number: null,
  street_id: null,
  postal_code: null,
  lat: 50.1,
  lng: 14.2,
  weight: 0,
  city_district: null,
  postal_place: null,
  ...over,
});

// The answer's JSON keeps these fields in this order (what clients saw before the mapper lost its spreads).
describe('toPlace: catalogue and detail objects, fields and their order', () => {
  it('a municipality', () => {
    const p = toPlace(doc({ name: 'A & B' }));
    expect(JSON.stringify(p)).toBe(
      '{"place_id":"cz_m1","highlight":"A &amp; B","municipality":"A & B","county":"Mělník","region":"Středočeský","latlng":{"lat":50.1,"lng":14.2},"object":"municipality","formatted_country":"Česko","country":"CZ"}',
    );
  });

  it('a municipality without a county or coordinates says so with null', () => {
    const p = toPlace(doc({ country: 'LI', county: null, lat: null, lng: null, name: 'Vaduz', region: 'Oberland' }));
    expect(Object.entries(p)).toEqual([
      ['place_id', 'cz_m1'],
      ['highlight', 'Vaduz'],
      ['municipality', 'Vaduz'],
      ['county', null],
      ['region', 'Oberland'],
      ['latlng', null],
      ['object', 'municipality'],
      ['formatted_country', 'Liechtenstein'],
      ['country', 'LI'],
    ]);
  });

  it('a region and a county carry their name', () => {
    for (const object of ['region', 'county'] as const) {
      expect(Object.keys(toPlace(doc({ object, place_id: 'cz_r1', name: 'Praha' })))).toEqual(['place_id', 'highlight', 'name', 'object', 'formatted_country', 'country', 'latlng']);
      expect(toPlace(doc({ object, name: 'Praha' }), '<em>Pra</em>ha')).toMatchObject({ highlight: '<em>Pra</em>ha', name: 'Praha', object });
    }
  });

  it('any other kind: the common fields only', () => {
    expect(toPlace(doc({ object: 'postal_code', name: '110 00' }))).toEqual({
      place_id: 'cz_m1',
      highlight: '110 00',
      object: 'postal_code',
      formatted_country: 'Česko',
      country: 'CZ',
      latlng: { lat: 50.1, lng: 14.2 },
    });
    expect(Object.keys(toPlace(doc({ object: 'postal_code' })))).toEqual(['place_id', 'highlight', 'object', 'formatted_country', 'country', 'latlng']);
  });
});
