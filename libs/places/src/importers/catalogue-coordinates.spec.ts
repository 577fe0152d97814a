import { resolve } from 'node:path';
import { emptyDoc, placeId } from '../domain/place.doc';
import { assignCoordinates, normName } from './catalogue-coordinates';
import { Catalogue, emptyCatalogue } from './catalogue.types';
import { readCzCatalogueCsv } from './cz/cz-catalogue-csv.reader';
import { buildCzCatalogue } from './cz/cz-catalogue.builder';
import { GeonamesPostalRow, loadGeonamesPostal } from './geonames/geonames.reader';
import { buildSkCatalogue } from './sk/sk-catalogue.builder';
import { readRegisterChanges } from './sk/sk-register-xml.reader';

const FIXTURES = resolve(__dirname, '../fixtures');
const at = (cat: Catalogue, name: string) =>
  [...cat.regions, ...cat.counties, ...cat.municipalities].filter((d) => d.name === name).map((d) => [d.object, d.lat, d.lng]);

describe('normName', () => {
  it('ignores case, diacritics and spacing around hyphens', () => {
    expect(normName('Čerín - Čačín')).toBe('cerin-cacin');
    expect(normName('  Slovenská   ĽUPČA ')).toBe('slovenska lupca');
    expect(normName('Okres Stará Ĺubovňa')).toBe(normName('Okres Stará Ľubovňa'));
  });
});

describe('assignCoordinates, CZ', () => {
  let cat: Catalogue;
  let report: ReturnType<typeof assignCoordinates>;
  beforeAll(async () => {
    cat = await buildCzCatalogue(readCzCatalogueCsv(resolve(FIXTURES, 'cz/psc-list.csv')));
    report = assignCoordinates(cat, (await loadGeonamesPostal(resolve(FIXTURES, 'geonames/CZ.txt'))).rows);
  });

  it('prefers the row with one of its PSCs and its name', () => {
    // Zlín's PSCs 760 01 / 763 02 also carry Prštné and Malenovice: only the row named Zlín counts.
    expect(at(cat, 'Zlín')).toEqual([['county', expect.any(Number), expect.any(Number)], ['municipality', 49.2265, 17.6667]]);
    expect(at(cat, 'Petrov nad Desnou')).toEqual([['municipality', 50.002, 17.019]]);
  });

  it('falls back to the mean of the rows with its PSCs', () => {
    // No GeoNames row is named Praha; its PSCs 110 00, 186 00, 120 00 are Josefov, Karlín, Vinohrady.
    expect(at(cat, 'Praha')).toEqual([['municipality', 50.0862, 14.436]]);
    expect(report).toEqual({ byPostalCodeAndName: 6, byPostalCode: 1, byNameAndCounty: 0, byNameOnly: 0, without: 0 });
  });

  it('places counties and regions at the mean of their municipalities', () => {
    // Zlín county: Želechovice (49.218, 17.745), Zlín (49.2265, 17.6667), Otrokovice (49.21, 17.53).
    expect(cat.counties.find((c) => c.name === 'Zlín')).toMatchObject({ lat: 49.218167, lng: 17.647233 });
    expect(cat.regions.find((r) => r.name === 'Zlínský')).toMatchObject({ lat: 49.218167, lng: 17.647233 });
  });
});

describe('assignCoordinates, SK', () => {
  let cat: Catalogue;
  let report: ReturnType<typeof assignCoordinates>;
  beforeAll(async () => {
    cat = await buildSkCatalogue(readRegisterChanges(resolve(FIXTURES, 'sk/DavkaInit-catalogue.xml')));
    report = assignCoordinates(cat, (await loadGeonamesPostal(resolve(FIXTURES, 'geonames/SK.txt'))).rows);
  });

  it('matches name within the okres, averaging a place listed under several postal codes', () => {
    expect(at(cat, 'Bratislava-Staré Mesto')).toEqual([['municipality', 48.145, 17.106]]);
    expect(at(cat, 'Liptovský Ján')).toEqual([['municipality', 49.042, 19.68]]);
  });

  it('leaves a municipality GeoNames spells differently without a position', () => {
    expect(at(cat, 'Čerín')).toEqual([['municipality', null, null]]);
    expect(report).toEqual({ byPostalCodeAndName: 0, byPostalCode: 0, byNameAndCounty: 11, byNameOnly: 0, without: 1 });
    expect(cat.counties.every((c) => c.lat !== null) && cat.regions.every((r) => r.lat !== null)).toBe(true);
  });

  it('uses a name alone only when it is unique in GeoNames and in the catalogue', () => {
    const c = emptyCatalogue('SK');
    const county = (name: string) => emptyDoc('SK', 'county', placeId('SK', 'county', name), name);
    const [somewhere, partizanske] = [county('Somewhere'), county('Partizánske')];
    const muni = (code: string, name: string, parent = somewhere) => ({
      ...emptyDoc('SK', 'municipality', placeId('SK', 'municipality', code), name), county_id: parent.place_id, county: parent.name,
    });
    c.counties = [somewhere, partizanske];
    c.municipalities = [muni('1', 'Lúčky'), muni('2', 'Brezovica'), muni('3', 'Hradište', partizanske), muni('4', 'Hradište')];
    const row = (place: string, admin2Name: string, lat: number): GeonamesPostalRow => ({
      country: 'SK', postalCode: '00000', postalCodeRaw: '000 00', place, admin1Name: '', admin1Code: '',
      admin2Name, admin2Code: '', admin3Name: '', admin3Code: '', lat, lng: 19, accuracy: 4, line: 1,
    });
    const r = assignCoordinates(c, [
      row('Lúčky', 'Okres Ružomberok', 49.1), row('Lúčky', 'Okres Ružomberok', 49.3),
      row('Brezovica', 'Okres Tvrdošín', 49.4), row('Brezovica', 'Okres Sabinov', 49.1),
      { ...row('Brezovica', 'Okres Somewhere', 50), country: 'CZ' },
      row('Hradište', 'Okres Partizánske', 48.6),
    ]);
    expect(c.municipalities.map((m) => [m.name, m.county, m.lat])).toEqual([
      ['Lúčky', 'Somewhere', 49.2],
      ['Brezovica', 'Somewhere', null],
      ['Hradište', 'Partizánske', 48.6],
      ['Hradište', 'Somewhere', null],
    ]);
    expect(r).toMatchObject({ byNameAndCounty: 1, byNameOnly: 1, without: 2 });
    expect(somewhere).toMatchObject({ lat: 49.2, lng: 19 });
  });
});
