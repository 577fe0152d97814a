import { formatAddress, formatNumber, postalCodeOf } from './address-format';
import { emptyDoc, PlaceDoc } from './place.doc';

function address(country: PlaceDoc['country'], fields: Partial<PlaceDoc>): PlaceDoc {
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

describe('formatAddress, PL/AT/CH/LI: the whole number after the street, the postal code before the town', () => {
  it('PL: the street keeps its TERYT prefix, the postal code gets its dash', () => {
    const d = address('PL', { street: 'ul. Marszałkowska', building_number: '12/3', postal_code: '00950', municipality: 'Warszawa' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'ul. Marszałkowska 12/3, 00-950 Warszawa', formatted_street: 'ul. Marszałkowska 12/3', formatted_number: '12/3' });
    expect(formatAddress({ ...d, street: 'al. Jana Pawła II', building_number: '5' }).formatted_address).toBe('al. Jana Pawła II 5, 00-950 Warszawa');
  });

  it('PL: a village without streets writes its locality and number, a street lies in its locality', () => {
    const village = address('PL', { district: 'Zalesie', building_number: '12', postal_code: '05500', municipality: 'Piaseczno' });
    expect(formatAddress(village).formatted_address).toBe('Zalesie 12, 05-500 Piaseczno');
    const street = address('PL', { street: 'ul. Polna', district: 'Mysiadło', building_number: '5', postal_code: '05500', municipality: 'Lesznowola' });
    expect(formatAddress(street).formatted_address).toBe('ul. Polna 5, 05-500 Mysiadło');
  });

  it('AT: Hauptstraße 12/3/5, 1010 Wien', () => {
    const d = address('AT', { street: 'Hauptstraße', building_number: '12/3/5', postal_code: '1010', municipality: 'Wien' });
    expect(formatAddress(d)).toEqual({ formatted_address: 'Hauptstraße 12/3/5, 1010 Wien', formatted_street: 'Hauptstraße 12/3/5', formatted_number: '12/3/5' });
  });

  it('CH: the postal place (PLZ name) when the register gives one', () => {
    const d = address('CH', { street: 'Bahnhofstrasse', building_number: '1', postal_code: '8001', municipality: 'Zürich' });
    expect(formatAddress(d).formatted_address).toBe('Bahnhofstrasse 1, 8001 Zürich');
    const verbier = address('CH', { street: 'Route de Verbier', building_number: '1', postal_code: '1936', municipality: 'Val de Bagnes', district: 'Verbier', postal_place: 'Verbier' });
    expect(formatAddress(verbier).formatted_address).toBe('Route de Verbier 1, 1936 Verbier');
  });

  it('LI: Städtle 1, 9490 Vaduz', () => {
    const d = address('LI', { street: 'Städtle', building_number: '1', postal_code: '9490', municipality: 'Vaduz' });
    expect(formatAddress(d).formatted_address).toBe('Städtle 1, 9490 Vaduz');
  });
});

describe('postalCodeOf', () => {
  it('gives the written form of the stored code, null when there is none', () => {
    expect(postalCodeOf({ country: 'CZ', postal_code: '74601' })).toBe('746 01');
    expect(postalCodeOf({ country: 'PL', postal_code: '67416' })).toBe('67-416');
    expect(postalCodeOf({ country: 'LI', postal_code: '9490' })).toBe('9490');
    expect(postalCodeOf({ country: 'AT', postal_code: null })).toBeNull();
    expect(postalCodeOf({ country: 'SK', postal_code: '' })).toBeNull();
  });
});
