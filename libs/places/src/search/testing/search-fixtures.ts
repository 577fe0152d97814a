import { CountryCode } from '@lookup/contracts';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';

/**
 * Small, realistic documents for the contract suite: each one is here for a named behaviour
 * (house-number forms, abbreviations, diacritics, bias, dedupe, context; German, Polish,
 * French and Italian text). Invented rows in the shape the importers give.
 */
interface Town {
  cc: CountryCode;
  code: string;
  name: string;
  /** Null where the country has none (LI). */
  county: [string, string] | null;
  region: [string, string];
  postal: string;
  lat: number;
  lng: number;
}

export const TOWNS = {
  opava: { cc: 'CZ', code: '505927', name: 'Opava', county: ['3806', 'Opava'], region: ['132', 'Moravskoslezský kraj'], postal: '74601', lat: 49.9387, lng: 17.9026 },
  branka: { cc: 'CZ', code: '553646', name: 'Branka u Opavy', county: ['3806', 'Opava'], region: ['132', 'Moravskoslezský kraj'], postal: '74741', lat: 49.8878, lng: 17.8831 },
  svitavy: { cc: 'CZ', code: '578444', name: 'Svitavy', county: ['3611', 'Svitavy'], region: ['94', 'Pardubický kraj'], postal: '56802', lat: 49.7559, lng: 16.4683 },
  olomouc: { cc: 'CZ', code: '500496', name: 'Olomouc', county: ['3805', 'Olomouc'], region: ['124', 'Olomoucký kraj'], postal: '77900', lat: 49.5938, lng: 17.2509 },
  osek: { cc: 'CZ', code: '567639', name: 'Osek', county: ['3510', 'Teplice'], region: ['60', 'Ústecký kraj'], postal: '41705', lat: 50.6228, lng: 13.6934 },
  rancirov: { cc: 'CZ', code: '587869', name: 'Rančířov', county: ['3707', 'Jihlava'], region: ['108', 'Kraj Vysočina'], postal: '58601', lat: 49.3446, lng: 15.5598 },
  // 586 01 serves Jihlava and Rančířov (and three more); its postal-code document names Jihlava, where most of its addresses are.
  jihlava: { cc: 'CZ', code: '586846', name: 'Jihlava', county: ['3707', 'Jihlava'], region: ['108', 'Kraj Vysočina'], postal: '58601', lat: 49.3961, lng: 15.5912 },
  pisek: { cc: 'CZ', code: '549240', name: 'Písek', county: ['3305', 'Písek'], region: ['35', 'Jihočeský kraj'], postal: '39701', lat: 49.3088, lng: 14.1475 },
  // Two municipalities of one name (the register has two Frymburks, fourteen Nová Ves).
  frymburk: { cc: 'CZ', code: '545481', name: 'Frymburk', county: ['3302', 'Český Krumlov'], region: ['35', 'Jihočeský kraj'], postal: '38279', lat: 48.6659, lng: 14.1653 },
  frymburkKt: { cc: 'CZ', code: '578525', name: 'Frymburk', county: ['3404', 'Klatovy'], region: ['43', 'Plzeňský kraj'], postal: '34101', lat: 49.2487, lng: 13.7038 },
  krasnaCz: { cc: 'CZ', code: '554511', name: 'Krásná', county: ['3402', 'Cheb'], region: ['51', 'Karlovarský kraj'], postal: '35201', lat: 50.2292, lng: 12.1735 },
  kosice: { cc: 'SK', code: '599981', name: 'Košice - Krásna', county: ['802', 'Košice IV'], region: ['8', 'Košický kraj'], postal: '04018', lat: 48.6742, lng: 21.2867 },
  bratislava: { cc: 'SK', code: '529320', name: 'Bratislava - Staré Mesto', county: ['101', 'Bratislava I'], region: ['1', 'Bratislavský kraj'], postal: '81101', lat: 48.1447, lng: 17.1077 },
  // PL: TERYT ids (gmina without its type digit), postal codes as digits.
  warszawa: { cc: 'PL', code: '146501', name: 'Warszawa', county: ['1465', 'Warszawa'], region: ['14', 'mazowieckie'], postal: '00950', lat: 52.2297, lng: 21.0122 },
  lodz: { cc: 'PL', code: '106101', name: 'Łódź', county: ['1061', 'Łódź'], region: ['10', 'łódzkie'], postal: '90926', lat: 51.7592, lng: 19.456 },
  wroclaw: { cc: 'PL', code: '026401', name: 'Wrocław', county: ['0264', 'Wrocław'], region: ['02', 'dolnośląskie'], postal: '50363', lat: 51.1079, lng: 17.0385 },
  katowice: { cc: 'PL', code: '246901', name: 'Katowice', county: ['2469', 'Katowice'], region: ['24', 'śląskie'], postal: '40127', lat: 50.2649, lng: 19.0238 },
  piaseczno: { cc: 'PL', code: '141804', name: 'Piaseczno', county: ['1418', 'piaseczyński'], region: ['14', 'mazowieckie'], postal: '05500', lat: 52.0812, lng: 21.0238 },
  // AT: Bundesland, Bezirk, Gemeindekennziffer.
  wien: { cc: 'AT', code: '90101', name: 'Wien', county: ['901', 'Wien 1., Innere Stadt'], region: ['9', 'Wien'], postal: '1010', lat: 48.2082, lng: 16.3738 },
  linz: { cc: 'AT', code: '40101', name: 'Linz', county: ['401', 'Linz (Stadt)'], region: ['4', 'Oberösterreich'], postal: '4020', lat: 48.3069, lng: 14.2858 },
  // CH: canton, BFS district, BFS municipality number.
  zurich: { cc: 'CH', code: '261', name: 'Zürich', county: ['112', 'Zürich'], region: ['ZH', 'Zürich'], postal: '8001', lat: 47.3769, lng: 8.5417 },
  geneve: { cc: 'CH', code: '6621', name: 'Genève', county: ['2500', 'Genève'], region: ['GE', 'Genève'], postal: '1204', lat: 46.2044, lng: 6.1432 },
  locarno: { cc: 'CH', code: '5113', name: 'Locarno', county: ['2105', 'Locarno'], region: ['TI', 'Ticino'], postal: '6600', lat: 46.1709, lng: 8.7995 },
  brevine: { cc: 'CH', code: '6432', name: 'La Brévine', county: ['2403', 'Le Locle'], region: ['NE', 'Neuchâtel'], postal: '2125', lat: 46.9806, lng: 6.6075 },
  // LI: no counties; Oberland/Unterland as regions, the official BFS municipality number.
  vaduz: { cc: 'LI', code: '7011', name: 'Vaduz', county: null, region: ['roberland', 'Oberland'], postal: '9490', lat: 47.141, lng: 9.5209 },
} satisfies Record<string, Town>;

type TownKey = keyof typeof TOWNS;

function within(t: Town, d: PlaceDoc): PlaceDoc {
  return {
    ...d,
    region_id: placeId(t.cc, 'region', t.region[0]),
    region: t.region[1],
    county_id: t.county ? placeId(t.cc, 'county', t.county[0]) : null,
    county: t.county ? t.county[1] : null,
    municipality_id: placeId(t.cc, 'municipality', t.code),
    municipality: t.name,
  };
}

let nextAdm = 1000;

/** An address point; `number` is `79`, `79/22a` or `ce:59` (evidence number). */
export function address(town: TownKey, street: string | null, number: string, opts: { district?: string; postal?: string; dLat?: number; dLng?: number; adm?: number } = {}): PlaceDoc {
  const t = TOWNS[town];
  const ce = number.startsWith('ce:');
  const [sn, bn] = (ce ? number.slice(3) : number).split('/');
  const id = placeId(t.cc, 'address', opts.adm ?? nextAdm++);
  const d = within(t, emptyDoc(t.cc, 'address', id, ''));
  d.street = street;
  d.district = opts.district ?? t.name;
  d.street_number = sn;
  d.number_kind = ce ? 'ce' : 'cp';
  d.building_number = bn ?? null;
  d.postal_code = opts.postal ?? t.postal;
  d.lat = t.lat + (opts.dLat ?? 0);
  d.lng = t.lng + (opts.dLng ?? 0);
  d.name = [street ?? d.district, number].join(' ');
  if (street) d.street_id = placeId(t.cc, 'street', `${t.code}-${street}`);
  return d;
}

/**
 * A PL/AT/CH/LI address point: the whole number as written after the street in
 * `building_number` (`12`, `12/3/5`), no conscription number; a street-less village writes
 * its locality as `district`.
 */
export function wholeNumberAddress(town: TownKey, street: string | null, number: string, opts: { district?: string; postal?: string; dLat?: number; dLng?: number } = {}): PlaceDoc {
  const t = TOWNS[town];
  const d = within(t, emptyDoc(t.cc, 'address', placeId(t.cc, 'address', nextAdm++), ''));
  d.street = street;
  d.district = opts.district ?? null;
  d.building_number = number;
  d.postal_code = opts.postal ?? t.postal;
  d.lat = t.lat + (opts.dLat ?? 0);
  d.lng = t.lng + (opts.dLng ?? 0);
  d.name = [street ?? d.district, number].join(' ');
  if (street) d.street_id = placeId(t.cc, 'street', `${t.code}-${street}`);
  return d;
}

export function street(town: TownKey, name: string, weight = 10): PlaceDoc {
  const t = TOWNS[town];
  const d = within(t, emptyDoc(t.cc, 'street', placeId(t.cc, 'street', `${t.code}-${name}`), name));
  return { ...d, street: name, postal_code: t.postal, lat: t.lat, lng: t.lng, weight };
}

export function municipality(town: TownKey, weight = 100): PlaceDoc {
  const t = TOWNS[town];
  const d = within(t, emptyDoc(t.cc, 'municipality', placeId(t.cc, 'municipality', t.code), t.name));
  // As the importer makes them: a municipality has many postal codes, its document none.
  return { ...d, lat: t.lat, lng: t.lng, weight };
}

export function postalCode(town: TownKey, code = TOWNS[town].postal): PlaceDoc {
  const t = TOWNS[town];
  const d = within(t, emptyDoc(t.cc, 'postal_code', placeId(t.cc, 'postal_code', code), code));
  return { ...d, postal_code: code, lat: t.lat, lng: t.lng, weight: 1 };
}

export function searchFixtureDocs(): PlaceDoc[] {
  nextAdm = 1000;
  return [
    address('opava', 'Lihovarská', '79/22a', { district: 'Předměstí', adm: 21600001 }),
    address('opava', 'Lihovarská', '8', { district: 'Předměstí', dLat: 0.0004 }),
    address('opava', 'Lihovarská', '83', { district: 'Předměstí', dLat: 0.0008 }),
    address('opava', 'Lihovarská', '83a', { district: 'Předměstí', dLat: 0.0009 }),
    address('opava', 'Lihovarská', '1150/7', { district: 'Předměstí', dLat: -0.0005 }),
    address('opava', 'Horní náměstí', '69/1', { district: 'Město', dLng: 0.004 }),
    address('opava', 'Svatého Čecha', '7', { district: 'Předměstí', dLng: -0.003 }),
    address('opava', 'Svatoplukova', '7', { district: 'Předměstí', dLng: -0.0035 }),
    address('opava', 'Nádražní', '15', { district: 'Předměstí', dLat: 0.01 }),
    address('opava', 'Nádražní', '1', { district: 'Předměstí', dLat: 0.011 }),
    address('opava', null, 'ce:59', { district: 'Podvihov', postal: '74706', dLat: 0.05 }),
    address('opava', null, '12', { district: 'Podvihov', postal: '74706', dLat: 0.051 }),
    address('branka', 'Cihelní', '265'),
    address('branka', 'Opavská', '12', { dLat: 0.001 }),
    address('svitavy', 'Nádražní', '153', { district: 'Předměstí' }),
    address('svitavy', 'Nádražní', '1', { district: 'Předměstí', dLat: 0.0005 }),
    address('svitavy', 'Kijevská', '2125/13c', { district: 'Lány' }),
    address('olomouc', 'třída Svobody', '39/1', { district: 'Olomouc' }),
    address('osek', 'Lidická', '500'),
    // The register writes some street names abbreviated.
    address('pisek', 'Fügnerovo nám.', '2428', { district: 'Budějovické Předměstí' }),
    address('rancirov', null, '86'),
    address('rancirov', null, '8', { dLat: 0.001 }),
    address('krasnaCz', null, '5'),
    address('jihlava', 'Masarykovo náměstí', '1', { district: 'Jihlava' }),
    // `Frymburk 17`: the part named Frymburk before the part Milná; `Malá strana 8`: 8 is one house's orientation number, another's conscription number.
    address('frymburk', null, '17', { district: 'Milná', dLat: 0.02 }),
    address('frymburk', null, '17', { district: 'Frymburk' }),
    address('rancirov', 'Malá strana', '8', { dLat: 0.002 }),
    address('rancirov', 'Malá strana', '120/8', { dLat: 0.003 }),
    // One edit from Rančířov's Malá strana, in Jihlava, whose post office serves Rančířov (an invented street).
    address('jihlava', 'Malá stráň', '8', { dLat: 0.004 }),
    address('rancirov', null, 'ce:59', { district: 'Drkolná', dLat: -0.01 }),
    address('rancirov', null, '59', { district: 'Drkolná', dLat: -0.011 }),
    address('rancirov', null, '5', { district: 'Drkolná', dLat: -0.012 }),
    address('kosice', 'Krásna', '5', { district: 'Krásna' }),
    address('bratislava', 'Hlavná', '12/3', { district: 'Staré Mesto' }),
    // The same address point published twice (two refreshes with different codes): shown once.
    address('osek', 'Lidická', '501', { adm: 90000001 }),
    address('osek', 'Lidická', '501', { adm: 90000002 }),
    street('opava', 'Lihovarská', 40),
    street('opava', 'Horní náměstí', 30),
    street('opava', 'Nádražní', 60),
    street('svitavy', 'Nádražní', 50),
    street('branka', 'Opavská', 20),
    street('osek', 'Lidická', 20),
    street('kosice', 'Krásna', 15),
    municipality('opava', 20000),
    municipality('branka', 600),
    municipality('svitavy', 6000),
    municipality('olomouc', 30000),
    municipality('osek', 1500),
    municipality('rancirov', 100),
    municipality('jihlava', 24000),
    municipality('krasnaCz', 200),
    municipality('frymburk', 1300),
    municipality('frymburkKt', 70),
    municipality('kosice', 2000),
    postalCode('opava'),
    postalCode('opava', '74706'),
    postalCode('branka'),
    postalCode('svitavy'),
    postalCode('olomouc'),
    postalCode('osek'),
    postalCode('jihlava'),
    postalCode('bratislava'),
    postalCode('kosice'),
    ...foreignFixtureDocs(),
  ];
}

/** PL, AT, CH and LI: German, Polish, French and Italian text, whole house numbers, four-digit and dashed postal codes. */
function foreignFixtureDocs(): PlaceDoc[] {
  return [
    wholeNumberAddress('warszawa', 'ul. Marszałkowska', '12/3'),
    wholeNumberAddress('warszawa', 'ul. Marszałkowska', '140', { postal: '00061', dLat: 0.004 }),
    wholeNumberAddress('warszawa', 'al. Jana Pawła II', '5', { postal: '00828', dLng: -0.01 }),
    wholeNumberAddress('warszawa', 'al. Jerozolimskie', '44', { postal: '00024', dLat: -0.002 }),
    wholeNumberAddress('lodz', 'ul. Piotrkowska', '104'),
    wholeNumberAddress('lodz', 'ul. Źródłowa', '3', { postal: '91733', dLat: 0.01 }),
    wholeNumberAddress('lodz', 'ul. Księży Młyn', '14', { postal: '90345', dLat: -0.01 }),
    wholeNumberAddress('wroclaw', 'pl. Grunwaldzki', '3'),
    wholeNumberAddress('katowice', 'os. Tysiąclecia', '10'),
    wholeNumberAddress('piaseczno', null, '12', { district: 'Zalesie', dLat: -0.03 }),
    wholeNumberAddress('wien', 'Hauptstraße', '12/3/5'),
    wholeNumberAddress('wien', 'Hauptstraße', '12', { dLat: 0.0002 }),
    wholeNumberAddress('wien', 'Stephansplatz', '1', { dLng: 0.002 }),
    // A range, as BEV writes `HNR_ADR_ZUSAMMEN` (HAUSNRZAHL1 `-` HAUSNRZAHL2).
    wholeNumberAddress('wien', 'Bäckerstraße', '1-3', { dLat: -0.001 }),
    wholeNumberAddress('wien', 'Schulgasse', '4', { postal: '1180', dLat: 0.02 }),
    wholeNumberAddress('wien', 'Schönbrunner Straße', '4', { postal: '1050', dLat: -0.01 }),
    wholeNumberAddress('wien', 'St. Ulrichs-Platz', '2', { postal: '1070', dLng: -0.02 }),
    wholeNumberAddress('linz', 'Wiener Straße', '5'),
    wholeNumberAddress('linz', 'Bahnhofstraße', '1', { dLat: 0.003 }),
    wholeNumberAddress('zurich', 'Bahnhofstrasse', '1'),
    wholeNumberAddress('zurich', 'Bärengasse', '22', { dLng: -0.002 }),
    wholeNumberAddress('zurich', 'Müllerstrasse', '10', { postal: '8004', dLng: -0.01 }),
    // Written with `ue`, as Swiss data sometimes writes the umlaut.
    wholeNumberAddress('zurich', 'Muehlebachstrasse', '8', { postal: '8008', dLng: 0.01 }),
    wholeNumberAddress('geneve', 'Rue du Rhône', '5'),
    wholeNumberAddress('locarno', 'Via Città Vecchia', '3'),
    wholeNumberAddress('brevine', 'Rue du Temple', '12'),
    wholeNumberAddress('vaduz', 'Städtle', '1'),
    wholeNumberAddress('vaduz', 'Äulestr.', '30', { dLat: 0.002 }),
    street('warszawa', 'ul. Marszałkowska', 80),
    street('wien', 'Hauptstraße', 40),
    street('zurich', 'Bahnhofstrasse', 60),
    street('vaduz', 'Städtle', 20),
    municipality('warszawa', 1_800_000),
    municipality('lodz', 660_000),
    municipality('wien', 16_000),
    municipality('zurich', 420_000),
    municipality('geneve', 200_000),
    municipality('vaduz', 5_700),
    postalCode('warszawa'),
    postalCode('warszawa', '00951'),
    postalCode('lodz'),
    postalCode('wien'),
    postalCode('zurich'),
    postalCode('zurich', '8004'),
    postalCode('vaduz'),
  ];
}
