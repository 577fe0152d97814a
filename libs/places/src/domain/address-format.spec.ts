import { formatAddress, formatNumber, formatPostalCode } from './address-format';
import { emptyDoc, PlaceDoc } from './place.doc';

function address(country: 'CZ' | 'SK', fields: Partial<PlaceDoc>): PlaceDoc {
  return { ...emptyDoc(country, 'address', `${country.toLowerCase()}_a1`, ''), ...fields };
}

describe('formatAddress, Czech convention', () => {
  it('street with conscription and orientation number + letter', () => {
    const d = address('CZ', { street: 'Lihovarská', street_number: '79', number_kind: 'cp', building_number: '22a', postal_code: '74601', municipality: 'Opava', district: 'Předměstí' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'Lihovarská 79/22a, 746 01 Opava', formatted_street: 'Lihovarská 79/22a', formatted_number: '79/22a' });
  });

  it('street with a conscription number only', () => {
    const d = address('CZ', { street: 'Cihelní', street_number: '265', number_kind: 'cp', postal_code: '74741', municipality: 'Branka u Opavy' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'Cihelní 265, 747 41 Branka u Opavy', formatted_street: 'Cihelní 265', formatted_number: '265' });
  });

  it('village without streets: the part of the municipality takes the street place', () => {
    const d = address('CZ', { street: null, district: 'Podvihov', street_number: '59', number_kind: 'cp', postal_code: '74706', municipality: 'Opava' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'Podvihov 59, 747 06 Opava', formatted_street: 'Podvihov 59', formatted_number: '59' });
  });

  it('evidence number', () => {
    const d = address('CZ', { street: null, district: 'Podvihov', street_number: '59', number_kind: 'ce', postal_code: '74706', municipality: 'Opava' });
    expect(formatAddress(d).formatted_street).toBe('Podvihov č. ev. 59');
    expect(formatAddress({ ...d, street: 'Dyjská', building_number: '3' }).formatted_address).toBe('Dyjská č. ev. 59/3, 747 06 Opava');
  });

  it('Praha: the postal district name follows the postal code', () => {
    const d = address('CZ', { street: 'Lihovarská', street_number: '1060', number_kind: 'cp', building_number: '12', postal_code: '19000', municipality: 'Praha', city_district: 'Praha 9', postal_place: 'Praha 9' });
    expect(formatAddress(d).formatted_address).toBe('Lihovarská 1060/12, 190 00 Praha 9');
  });

  it('leaves out what is missing without stray separators', () => {
    const d = address('CZ', { street: 'Cihelní', street_number: '265', number_kind: 'cp', municipality: 'Branka u Opavy' });
    expect(formatAddress(d).formatted_address).toBe('Cihelní 265, Branka u Opavy');
    expect(formatAddress(address('CZ', { street: 'Cihelní', municipality: 'Opava' }))).toEqual({ formatted_address: 'Cihelní, Opava', formatted_street: 'Cihelní', formatted_number: '' });
  });
});

describe('formatAddress, Slovak convention', () => {
  it('súpisné / orientačné number', () => {
    const d = address('SK', { street: 'Hlavná', street_number: '12', number_kind: 'cp', building_number: '3', postal_code: '81101', municipality: 'Bratislava - Staré Mesto' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'Hlavná 12/3, 811 01 Bratislava - Staré Mesto', formatted_street: 'Hlavná 12/3', formatted_number: '12/3' });
  });

  it('village without streets uses the municipality part, else the municipality', () => {
    const d = address('SK', { street_number: '123', number_kind: 'cp', postal_code: '02741', municipality: 'Bobrov' });
    expect(formatAddress(d).formatted_address).toBe('Bobrov 123, 027 41 Bobrov');
  });

  it('an entrance with only an orientation number', () => {
    expect(formatNumber({ street_number: null, number_kind: null, building_number: '7A' })).toBe('7A');
  });
});

describe('formatPostalCode', () => {
  it.each([
    ['CZ', '74601', '746 01'],
    ['CZ', '746 01', '746 01'],
    ['SK', '81101', '811 01'],
    ['PL', '00950', '00-950'],
    ['AT', '1010', '1010'],
  ] as const)('%s %s -> %s', (country, code, out) => expect(formatPostalCode(country, code)).toBe(out));
});
