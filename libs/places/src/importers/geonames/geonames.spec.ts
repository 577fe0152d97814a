import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeWithData, sharedData, tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { loadCatalogue } from '../catalogue.loader';
import { ADDRESSES_PER_POSTAL_CODE } from '../catalogue.types';
import { GeonamesImportReport, geonamesPlaceDocs, GeonamesPlaceDocsOptions } from './geonames-place-docs';
import { loadGeonamesCatalogue } from './geonames-catalogue';
import { chCountyName, chRegionName, plCountyName } from './geonames-names';

const FIXTURES = resolve(__dirname, '../../fixtures');
const fixture = (cc: string) => join(FIXTURES, `geonames/${cc}.txt`);
const ids = (docs: PlaceDoc[]) => docs.map((d) => d.place_id);

async function collect(opts: GeonamesPlaceDocsOptions): Promise<{ docs: PlaceDoc[]; report: GeonamesImportReport; batches: number }> {
  let report: GeonamesImportReport | undefined;
  const docs: PlaceDoc[] = [];
  let batches = 0;
  for await (const b of geonamesPlaceDocs({ ...opts, onReport: (r) => (report = r) })) {
    docs.push(...b);
    batches++;
  }
  return { docs, report: report!, batches };
}

/** Writes `lines` (rows in the GeoNames format) to a temporary file `name`, runs `test` on it, removes it. */
async function withRowsFile(name: string, lines: string[], test: (file: string) => Promise<void>): Promise<void> {
  const dir = tempDir('geonames-');
  try {
    const file = join(dir.path, name);
    writeFileSync(file, [...lines, ''].join('\n'));
    await test(file);
  } finally {
    dir.remove();
  }
}

describe('GeoNames catalogue (PL, AT, CH, LI) on the fixtures', () => {
  it('PL: voivodeship from the powiat code, gminas without their type digit, Polish names', async () => {
    const cat = await loadGeonamesCatalogue('PL', fixture('PL'));
    expect(cat.errors).toEqual([]);
    expect(cat.regions.map((d) => `${d.place_id} ${d.name}`)).toEqual(['pl_r02 dolnośląskie', 'pl_r14 mazowieckie', 'pl_r22 pomorskie']);
    expect(cat.counties.map((d) => `${d.place_id} ${d.name}`)).toEqual([
      'pl_c0201 powiat bolesławiecki',
      'pl_c0203 powiat głogowski',
      'pl_c0264 Wrocław',
      'pl_c1418 powiat piaseczyński',
      'pl_c1465 Warszawa',
      'pl_c2261 Gdańsk',
    ]);
    // Bolesławiec the town (020101) and the rural gmina around it (020102) are two municipalities of one name.
    expect(ids(cat.municipalities)).toEqual(['pl_m020101', 'pl_m020102', 'pl_m020103', 'pl_m020301', 'pl_m026401', 'pl_m141804', 'pl_m146501', 'pl_m226101']);
    const gromadka = cat.municipalities.find((m) => m.place_id === 'pl_m020103')!;
    expect(gromadka).toMatchObject({ name: 'Gromadka', county_id: 'pl_c0201', county: 'powiat bolesławiecki', region_id: 'pl_r02', region: 'dolnośląskie', municipality_id: 'pl_m020103' });
    const piaseczno = cat.municipalities.find((m) => m.place_id === 'pl_m141804')!;
    // Mean of its three rows; it weighs its two postal codes (estimateTownWeights), not its rows.
    expect(piaseczno.weight).toBe(2 * ADDRESSES_PER_POSTAL_CODE);
    expect(piaseczno.lat).toBeCloseTo((52.081 + 52.101 + 52.029) / 3, 6);
    expect(piaseczno.lng).toBeCloseTo((21.024 + 21.045 + 21.047) / 3, 6);
    expect(cat.postalCodes.get('pl_m141804')).toEqual(new Set(['05500', '05502']));
    expect(cat.postalCodes.get('pl_m020101')).toEqual(new Set(['59700']));
    expect(cat.postalCodes.get('pl_m020102')).toEqual(new Set(['59700']));
  });

  it('PL: Polish names where GeoNames writes English ones or identifiers (Warsaw, Leszno_County, Warsaw West County)', async () => {
    // Rows in the GeoNames format as PL.txt writes these units (TERYT codes real, places and positions ours).
    const row = (code: string, place: string, admin1: string, a1: string, admin2: string, c2: string, admin3: string, c3: string, lat: string, lng: string) =>
      ['PL', code, place, admin1, a1, admin2, c2, admin3, c3, lat, lng, ''].join('\t');
    const rows = [
      row('00-001', 'Warszawa', 'Mazovia', '78', 'Warszawa', '1465', 'Warsaw', '146501', '52.2355', '21.0040'),
      row('00-950', 'Warszawa', 'Mazovia', '78', 'Warszawa', '1465', 'Warsaw', '146501', '52.2301', '21.0118'),
      row('05-080', 'Izabelin', 'Mazovia', '78', 'Warsaw West County', '1432', 'Izabelin', '143202', '52.2976', '20.8125'),
      row('05-080', 'Lipków', 'Mazovia', '78', 'Warsaw West County', '1432', 'Gmina Stare Babice', '143207', '52.2717', '20.8109'),
      row('64-100', 'Leszno', 'Greater Poland', '86', 'Leszno', '3063', 'Leszno', '306301', '51.8400', '16.5750'),
      row('64-113', 'Świerczyna', 'Greater Poland', '86', 'Leszno_County', '3013', 'Gmina Osieczna', '301303', '51.9000', '16.6800'),
      row('87-162', 'Gronowo', 'Kujawsko-Pomorskie', '73', 'Torun County', '0415', 'Lubicz', '041504', '53.0300', '18.7500'),
      row('99-400', 'Łowicz', 'Łódź Voivodeship', '74', 'powiat Łowicki', '1005', 'gmina Miasto Łowicz', '100501', '52.1070', '19.9450'),
      row('99-400', 'Strzelcew', 'Łódź Voivodeship', '74', 'powiat Łowicki', '1005', 'Łowicz', '100507', '52.0900', '19.9000'),
      // Case aside the gmina is its one place: GeoNames' `nad` is right, the place's `Nad` is not.
      row('66-470', 'Kostrzyn Nad Odrą', 'Lubusz', '76', 'Powiat gorzowski', '0801', 'Kostrzyn nad Odrą', '080101', '52.5880', '14.6480'),
      // Gminas keep their names where no place bears them: Bystra-Sidzina (two villages), Stare Babice and
      // Osieczna above (villages this file does not list).
      row('34-235', 'Bystra Podhalańska', 'Lesser Poland', '77', 'Powiat suski', '1215', 'Gmina Bystra-Sidzina', '121504', '49.6600', '19.7300'),
      row('34-236', 'Sidzina', 'Lesser Poland', '77', 'Powiat suski', '1215', 'Gmina Bystra-Sidzina', '121504', '49.6300', '19.7000'),
    ];
    await withRowsFile('PL.txt', rows, async (file) => {
      const cat = await loadGeonamesCatalogue('PL', file);
      expect(cat.errors).toEqual([]);
      expect(cat.counties.map((d) => `${d.place_id} ${d.name}`)).toEqual([
        'pl_c0415 powiat toruński',
        'pl_c0801 powiat gorzowski',
        'pl_c1005 powiat łowicki',
        'pl_c1215 powiat suski',
        'pl_c1432 powiat warszawski zachodni',
        'pl_c1465 Warszawa',
        'pl_c3013 powiat leszczyński',
        'pl_c3063 Leszno',
      ]);
      expect(cat.municipalities.map((d) => `${d.place_id} ${d.name} (${d.county})`)).toEqual([
        'pl_m041504 Lubicz (powiat toruński)',
        'pl_m080101 Kostrzyn nad Odrą (powiat gorzowski)',
        'pl_m100501 Łowicz (powiat łowicki)',
        // The gmina of the same name in the same powiat without the town: the rural one, as TERYT's type says.
        'pl_m100507 Łowicz (gmina wiejska) (powiat łowicki)',
        'pl_m121504 Bystra-Sidzina (powiat suski)',
        'pl_m143202 Izabelin (powiat warszawski zachodni)',
        'pl_m143207 Stare Babice (powiat warszawski zachodni)',
        'pl_m146501 Warszawa (Warszawa)',
        'pl_m301303 Osieczna (powiat leszczyński)',
        'pl_m306301 Leszno (Leszno)',
      ]);
      const all = [...cat.regions, ...cat.counties, ...cat.municipalities];
      expect(all.filter((d) => /_|County|Warsaw/.test(`${d.name} ${d.county ?? ''} ${d.region ?? ''}`))).toEqual([]);
      // The postal codes carry the same names.
      const { docs } = await collect({ country: 'PL', file, catalogue: cat, skipMunicipalities: true });
      expect(docs.find((d) => d.place_id === 'pl_p00001')).toMatchObject({ municipality_id: 'pl_m146501', municipality: 'Warszawa', county: 'Warszawa', region: 'mazowieckie' });
      expect(docs.find((d) => d.place_id === 'pl_p64113')).toMatchObject({ municipality: 'Osieczna', county: 'powiat leszczyński', region: 'wielkopolskie' });
    });
  });

  it('AT: Bundesland digit, Bezirk, GKZ; Vienna one municipality 90001 whatever its Gemeindebezirk', async () => {
    const cat = await loadGeonamesCatalogue('AT', fixture('AT'));
    expect(cat.errors).toEqual([]);
    expect(cat.regions.map((d) => `${d.place_id} ${d.name}`)).toEqual(['at_r1 Burgenland', 'at_r5 Salzburg', 'at_r6 Steiermark', 'at_r7 Tirol', 'at_r9 Wien']);
    expect(cat.counties.find((c) => c.place_id === 'at_c105')!.name).toBe('Jennersdorf');
    expect(cat.counties.find((c) => c.place_id === 'at_c900')!.name).toBe('Wien (Stadt)');
    expect(ids(cat.municipalities)).toEqual(['at_m10101', 'at_m10503', 'at_m50101', 'at_m60101', 'at_m70101', 'at_m90001']);
    const wien = cat.municipalities.find((m) => m.place_id === 'at_m90001')!;
    expect(wien).toMatchObject({ name: 'Wien', county_id: 'at_c900', region_id: 'at_r9', weight: 3 * ADDRESSES_PER_POSTAL_CODE });
    expect(cat.postalCodes.get('at_m90001')).toEqual(new Set(['1010', '1020', '1220']));
  });

  it('CH: canton abbreviation, BFS district and municipality numbers', async () => {
    const cat = await loadGeonamesCatalogue('CH', fixture('CH'));
    expect(cat.errors).toEqual([]);
    expect(cat.regions.map((d) => `${d.place_id} ${d.name}`)).toEqual(['ch_rag Aargau', 'ch_rbe Bern / Berne', 'ch_rge Genève', 'ch_rti Ticino', 'ch_rzh Zürich']);
    expect(cat.municipalities.find((m) => m.place_id === 'ch_m261')).toMatchObject({ name: 'Zürich', county_id: 'ch_c112', county: 'Zürich', region_id: 'ch_rzh' });
    expect(cat.municipalities.find((m) => m.place_id === 'ch_m4001')).toMatchObject({ lat: 47.3945, lng: 8.0525 });
  });

  it('CH: a merged municipality GeoNames lists under its old BFS number too is one municipality, under the new number, its postal codes with it', async () => {
    // Invented rows in GeoNames' layout: "Musterberg" under 120 (before a merger) and 298 (after), as GeoNames keeps Horgen (133, 295) and Elgg (217, 294).
    const dir = tempDir('geonames-ch-merged-');
    try {
      const row = (postal: string, place: string, bfs: string, lat: string) => ['CH', postal, place, 'Kanton Zürich', 'ZH', 'Bezirk Horgen', '106', 'Musterberg', bfs, lat, '8.5', '6'].join('\t');
      const file = join(dir.path, 'CH.txt');
      writeFileSync(file, [row('8890', 'Musterberg', '120', '47.25'), row('8891', 'Musterberg Dorf', '120', '47.26'), row('8892', 'Obermuster', '298', '47.27')].join('\n') + '\n');
      const cat = await loadGeonamesCatalogue('CH', file);
      expect(cat.municipalities.map((m) => `${m.place_id} ${m.name}`)).toEqual(['ch_m298 Musterberg']);
      const docs: PlaceDoc[] = [];
      for await (const b of geonamesPlaceDocs({ country: 'CH', file })) docs.push(...b);
      expect(docs.filter((d) => d.object === 'postal_code').map((d) => `${d.postal_code} ${d.municipality_id}`)).toEqual(['8890 ch_m298', '8891 ch_m298', '8892 ch_m298']);
    } finally {
      dir.remove();
    }
  });

  it('CH: cantons by their BFS names, districts bare in their own language where GeoNames writes English (Aigle District, Geneva)', async () => {
    // Rows in the GeoNames format, named as CH.txt names these units (canton, district and BFS numbers real, positions ours).
    const row = (code: string, place: string, admin1: string, a1: string, admin2: string, c2: string, bfs: string, lat: string, lng: string) =>
      ['CH', code, place, admin1, a1, admin2, c2, place, bfs, lat, lng, '8'].join('\t');
    const rows = [
      row('1860', 'Aigle', 'Canton de Vaud', 'VD', 'Aigle District', '2221', '5401', '46.3180', '6.9700'),
      row('1020', 'Renens', 'Canton de Vaud', 'VD', 'Ouest Lausannois District', '2229', '5591', '46.5390', '6.5880'),
      row('3011', 'Bern', 'Canton de Berne', 'BE', 'Bern-Mittelland District', '246', '351', '46.9470', '7.4480'),
      row('2502', 'Biel/Bienne', 'Canton de Berne', 'BE', 'Biel/Bienne District', '242', '371', '47.1370', '7.2470'),
      row('2610', 'Saint-Imier', 'Canton de Berne', 'BE', 'Jura bernois', '241', '443', '47.1530', '6.9970'),
      row('1700', 'Fribourg', 'Canton de Fribourg', 'FR', 'Sarine District', '1004', '2196', '46.8030', '7.1510'),
      row('3280', 'Murten', 'Canton de Fribourg', 'FR', 'Lake District', '1005', '2275', '46.9280', '7.1170'),
      row('1890', 'Saint-Maurice', 'Canton du Valais', 'VS', 'Saint-Maurice District', '2310', '6217', '46.2180', '7.0030'),
      row('3900', 'Brig', 'Canton du Valais', 'VS', 'Brig District', '2301', '6002', '46.3160', '7.9870'),
      row('6003', 'Luzern', 'Kanton Luzern', 'LU', 'Lucerne-Stadt District', '311', '1061', '47.0500', '8.3050'),
      row('6403', 'Küssnacht am Rigi', 'Kanton Schwyz', 'SZ', 'Bezirk Küssnacht', '504', '1331', '47.0850', '8.4420'),
      row('6900', 'Lugano', 'Ticino', 'TI', 'Lugano District', '2105', '5192', '46.0060', '8.9510'),
      row('1204', 'Genève', 'Genève', 'GE', 'Geneva', '2500', '6621', '46.2020', '6.1450'),
      row('9050', 'Appenzell', 'Kanton Appenzell Innerrhoden', 'AI', 'Appenzell Inner Rhodes', '1600', '3101', '47.3310', '9.4090'),
      row('6460', 'Altdorf', 'Kanton Uri', 'UR', 'Uri', '400', '1201', '46.8800', '8.6440'),
      row('7550', 'Scuol', 'Kanton Graubünden', 'GR', 'Region Engiadina Bassa / Val Müstair', '1843', '3762', '46.7970', '10.2980'),
      row('8640', 'Rapperswil-Jona', 'Kanton St. Gallen', 'SG', 'Wahlkreis See-Gaster', '1726', '3340', '47.2270', '8.8170'),
      row('8910', 'Affoltern am Albis', 'Kanton Zürich', 'ZH', 'Bezirk Affoltern', '101', '2', '47.2770', '8.4470'),
      row('2300', 'La Chaux-de-Fonds', 'Neuchâtel', 'NE', 'La Chaux-de-Fonds District', '2402', '6421', '47.1000', '6.8270'),
    ];
    await withRowsFile('CH.txt', rows, async (file) => {
      const cat = await loadGeonamesCatalogue('CH', file);
      expect(cat.errors).toEqual([]);
      expect(cat.regions.map((d) => `${d.place_id} ${d.name}`)).toEqual([
        'ch_rai Appenzell Innerrhoden',
        'ch_rbe Bern / Berne',
        'ch_rfr Fribourg / Freiburg',
        'ch_rge Genève',
        'ch_rgr Graubünden / Grigioni / Grischun',
        'ch_rlu Luzern',
        'ch_rne Neuchâtel',
        'ch_rsg St. Gallen',
        'ch_rsz Schwyz',
        'ch_rti Ticino',
        'ch_rur Uri',
        'ch_rvd Vaud',
        'ch_rvs Valais / Wallis',
        'ch_rzh Zürich',
      ]);
      expect(cat.counties.map((d) => `${d.place_id} ${d.name} (${d.region})`)).toEqual([
        'ch_c1004 Sarine (Fribourg / Freiburg)',
        'ch_c1005 See / Lac (Fribourg / Freiburg)',
        'ch_c101 Affoltern (Zürich)',
        'ch_c1600 Appenzell Innerrhoden (Appenzell Innerrhoden)',
        'ch_c1726 See-Gaster (St. Gallen)',
        'ch_c1843 Engiadina Bassa / Val Müstair (Graubünden / Grigioni / Grischun)',
        'ch_c2105 Lugano (Ticino)',
        'ch_c2221 Aigle (Vaud)',
        'ch_c2229 Ouest lausannois (Vaud)',
        'ch_c2301 Brig (Valais / Wallis)',
        'ch_c2310 Saint-Maurice (Valais / Wallis)',
        'ch_c2402 La Chaux-de-Fonds (Neuchâtel)',
        'ch_c241 Jura bernois (Bern / Berne)',
        'ch_c242 Biel/Bienne (Bern / Berne)',
        'ch_c246 Bern-Mittelland (Bern / Berne)',
        'ch_c2500 Genève (Genève)',
        'ch_c311 Luzern-Stadt (Luzern)',
        'ch_c400 Uri (Uri)',
        'ch_c504 Küssnacht (SZ) (Schwyz)',
      ]);
      const all = [...cat.regions, ...cat.counties, ...cat.municipalities];
      expect(all.filter((d) => /District|Distretto|Canton|Kanton|Bezirk|Wahlkreis|Region |Geneva|Lucerne|Inner Rhodes/.test(`${d.name} ${d.county ?? ''} ${d.region ?? ''}`))).toEqual([]);
      // The municipalities and postal codes carry the same names.
      expect(cat.municipalities.find((m) => m.place_id === 'ch_m5401')).toMatchObject({ name: 'Aigle', county: 'Aigle', region: 'Vaud' });
      const { docs } = await collect({ country: 'CH', file, catalogue: cat, skipMunicipalities: true });
      expect(docs.find((d) => d.place_id === 'ch_p3011')).toMatchObject({ municipality: 'Bern', county_id: 'ch_c246', county: 'Bern-Mittelland', region: 'Bern / Berne' });
      expect(docs.find((d) => d.place_id === 'ch_p1204')).toMatchObject({ municipality: 'Genève', county: 'Genève', region: 'Genève' });
    });
  });

  it('LI: municipalities by name to their official numbers, Oberland/Unterland, no county', async () => {
    const cat = await loadGeonamesCatalogue('LI', fixture('LI'));
    expect(cat.errors).toEqual([]);
    expect(cat.regions.map((d) => `${d.place_id} ${d.name}`)).toEqual(['li_roberland Oberland', 'li_runterland Unterland']);
    expect(cat.counties).toEqual([]);
    // GeoNames files Vaduz as 7001 and Eschen as 7007; their BFS numbers are 7011 and 7002.
    expect(cat.municipalities.map((m) => `${m.place_id} ${m.name} ${m.region_id} ${m.county_id}`)).toEqual([
      'li_m7001 Balzers li_roberland null',
      'li_m7002 Eschen li_runterland null',
      'li_m7006 Ruggell li_runterland null',
      'li_m7007 Schaan li_roberland null',
      'li_m7011 Vaduz li_roberland null',
    ]);
    expect(cat.postalCodes.get('li_m7002')).toEqual(new Set(['9492', '9485']));
  });

  it('reports every row it cannot place, with its line, and keeps the rest', async () => {
    const rows = [
      'PL\t00-950\tWarszawa\tMazovia\t78\tWarszawa\t1465\tWarszawa\t146501\t52.2301\t21.0118\t',
      'PL\t88-420\tJezioro\tKujawsko-Pomorskie\t73\t\t\t\t\t52.6500\t17.7600\t',
      'PL\t00-95\tWarszawa\tMazovia\t78\tWarszawa\t1465\tWarszawa\t146501\t52.2301\t21.0118\t',
      'PL\t00-951\tWarszawa\tMazovia\t78\tWarszawa\t1465\tWarszawa\t146501\tnorth\t21.0118\t',
      // Its own place name, so not a GeoNames name to correct from the place names (plGminaNames).
      'PL\t00-952\tStolica\tMazovia\t78\tWarszawa\t1465\tStolica\t146501\t52.2301\t21.0118\t',
    ];
    await withRowsFile('bad.txt', rows, async (file) => {
      const cat = await loadGeonamesCatalogue('PL', file);
      expect(cat.errors).toEqual([
        `${file} line 4: bad coordinates "north", "21.0118"`,
        'line 2: powiat code "" is not 4 TERYT digits: left out of the catalogue',
        'line 3: postal code "00-95" does not have 5 digits: left out of the catalogue',
        'line 5: municipality 146501 reads "Stolica", earlier "Warszawa"; kept the earlier',
      ]);
      expect(cat.municipalities.map((m) => m.name)).toEqual(['Warszawa']);
      const { docs, report } = await collect({ country: 'PL', file });
      // The row without a gmina still gives its postal code, without context; the short code does not.
      expect(docs.filter((d) => d.object === 'postal_code').map((d) => `${d.place_id} ${d.municipality}`)).toEqual(['pl_p00950 Warszawa', 'pl_p00952 Warszawa', 'pl_p88420 null']);
      expect(report).toMatchObject({ rows: 3, skipped: 2, postalCodes: 3, municipalities: 1, withoutMunicipality: 1 });
      expect(report.errors).toEqual([
        `${file} line 4: bad coordinates "north", "21.0118"`,
        `${file} line 3: postal code "00-95" does not have 5 digits`,
        `${file} line 2: powiat code "" is not 4 TERYT digits: left out of the catalogue`,
        `${file} line 5: municipality 146501 reads "Stolica", earlier "Warszawa"; kept the earlier`,
      ]);
    });
  });

  it('an unknown Liechtenstein municipality is reported, not guessed', async () => {
    await withRowsFile('LI.txt', ['LI\t9490\tVaduz\tVaduz\t7001\t\t\t\t\t47.1420\t9.5220\t6', 'LI\t9499\tAtlantis\tAtlantis\t7012\t\t\t\t\t47.1\t9.5\t6'], async (file) => {
      const cat = await loadGeonamesCatalogue('LI', file);
      expect(cat.errors).toEqual(['line 2: "Atlantis" is not one of the 11 municipalities of Liechtenstein: left out of the catalogue']);
      expect(ids(cat.municipalities)).toEqual(['li_m7011']);
    });
  });

  it('names: PL powiats the Polish way, CH cantons by their BFS names, CH districts bare', () => {
    expect(plCountyName('0201', 'Powiat bolesławiecki')).toBe('powiat bolesławiecki');
    expect(plCountyName('1005', 'powiat Łowicki')).toBe('powiat łowicki');
    expect(plCountyName('1006', 'Powiat łódzki wschodni')).toBe('powiat łódzki wschodni');
    // English in GeoNames: the TERYT name (PL_POWIATS_NAMED_IN_ENGLISH); an unknown code keeps the town, never `_`.
    expect(plCountyName('1432', 'Warsaw West County')).toBe('powiat warszawski zachodni');
    expect(plCountyName('3013', 'Leszno_County')).toBe('powiat leszczyński');
    expect(plCountyName('0206', 'Jelenia Góra County')).toBe('powiat karkonoski');
    expect(plCountyName('3030', 'Nowhere_County')).toBe('powiat Nowhere');
    expect(plCountyName('1465', 'Warszawa', 'Warszawa')).toBe('Warszawa');
    expect(plCountyName('1061', 'Lodz', 'Łódź')).toBe('Łódź');
    expect(plCountyName('1061', 'Lodz')).toBe('Lodz');
    // CH cantons by BFS's name whatever GeoNames writes; an abbreviation BFS does not know keeps GeoNames' name without `Canton de`.
    const cantons: [string, string, string][] = [
      ['ZH', 'Kanton Zürich', 'Zürich'],
      ['BE', 'Canton de Berne', 'Bern / Berne'],
      ['VS', 'Canton du Valais', 'Valais / Wallis'],
      ['TI', 'Ticino', 'Ticino'],
      ['XA', "Canton d'Argovie", 'Argovie'],
      ['XK', 'Kanton Aargau', 'Aargau'],
    ];
    expect(cantons.map(([abbr, geonames]) => chRegionName(abbr, geonames))).toEqual(cantons.map((c) => c[2]));
    // CH districts bare, whichever designation or English GeoNames gives them; a canton without districts is the canton.
    const districts: [string, string, string, string][] = [
      ['2221', 'Aigle District', 'Vaud', 'Aigle'],
      ['1901', 'Bezirk Aarau', 'Aargau', 'Aarau'],
      ['1841', 'Region Albula', 'Graubünden / Grigioni / Grischun', 'Albula'],
      ['1001', 'District de la Broye', 'Fribourg / Freiburg', 'Broye'],
      ['2221', "District d'Aigle", 'Vaud', 'Aigle'],
      ['2101', 'Distretto di Bellinzona', 'Ticino', 'Bellinzona'],
      ['246', 'Verwaltungskreis Bern-Mittelland', 'Bern / Berne', 'Bern-Mittelland'],
      ['312', 'Lucerne-Land District', 'Luzern', 'Luzern-Land'],
      ['2500', 'Geneva', 'Genève', 'Genève'],
    ];
    expect(districts.map(([code, geonames, canton]) => chCountyName(code, geonames, canton))).toEqual(districts.map((d) => d[3]));
  });

  it('loadCatalogue takes PL, AT, CH and LI from their GeoNames file', async () => {
    for (const country of ['PL', 'AT', 'CH', 'LI'] as const) {
      const { docs, report } = await loadCatalogue({ country, sources: { geonames: fixture(country) } });
      expect(report.withoutCoordinates).toBe(0);
      expect(report.errors).toEqual([]);
      expect(docs.length).toBe(report.regions + report.counties + report.municipalities);
      const known = new Set(ids(docs));
      for (const d of docs) {
        if (d.object !== 'region') expect(known.has(d.region_id!)).toBe(true);
        if (d.object === 'municipality' && country !== 'LI') expect(known.has(d.county_id!)).toBe(true);
      }
    }
  });
});

describe('geonamesPlaceDocs', () => {
  it('gives one postal-code document per code with its municipality, then the municipalities', async () => {
    const { docs, report } = await collect({ country: 'AT', file: fixture('AT'), batchSize: 4 });
    expect(report).toMatchObject({ country: 'AT', rows: 9, postalCodes: 8, municipalities: 6, keptExisting: 0, skipped: 0, withoutMunicipality: 0, errors: [] });
    expect(docs.map((d) => d.object)).toEqual([...Array(8).fill('postal_code'), ...Array(6).fill('municipality')]);
    const p7000 = docs.find((d) => d.place_id === 'at_p7000')!;
    expect(p7000).toMatchObject({
      object: 'postal_code', name: '7000', postal_code: '7000', municipality_id: 'at_m10101', municipality: 'Eisenstadt',
      county_id: 'at_c101', county: 'Eisenstadt Stadt', region_id: 'at_r1', region: 'Burgenland', lat: 47.8435, lng: 16.5125, weight: 1, district: null,
    });
    // Vienna's postal codes know their Gemeindebezirk.
    expect(docs.find((d) => d.place_id === 'at_p1020')).toMatchObject({ municipality_id: 'at_m90001', municipality: 'Wien', district: 'Leopoldstadt' });
    expect(docs.find((d) => d.place_id === 'at_m90001')).toMatchObject({ object: 'municipality', municipality_id: 'at_m90001', municipality: 'Wien' });
  });

  it('a postal code shared by municipalities goes to the one with most rows, ties to the lowest id', async () => {
    const { docs } = await collect({ country: 'PL', file: fixture('PL'), skipMunicipalities: true });
    expect(docs.every((d) => d.object === 'postal_code')).toBe(true);
    // 59-700: one row in Bolesławiec town (020101), one in the rural gmina (020102).
    expect(docs.find((d) => d.place_id === 'pl_p59700')).toMatchObject({ municipality_id: 'pl_m020101', weight: 1 });
    expect(docs.find((d) => d.place_id === 'pl_p05500')).toMatchObject({ municipality: 'Piaseczno', county: 'powiat piaseczyński', region: 'mazowieckie' });
  });

  it('leaves out what the store already has (a register import wins) and counts it', async () => {
    const present = async (idsAsked: string[]) => new Set(idsAsked.filter((id) => id === 'li_p9490' || id === 'li_m7011'));
    const { docs, report } = await collect({ country: 'LI', file: fixture('LI'), present });
    expect(ids(docs)).not.toContain('li_p9490');
    expect(ids(docs)).not.toContain('li_m7011');
    expect(report).toMatchObject({ postalCodes: 5, municipalities: 4, keptExisting: 2 });
    expect(docs.find((d) => d.place_id === 'li_p9485')).toMatchObject({ municipality_id: 'li_m7002', municipality: 'Eschen', region: 'Unterland', county_id: null });
  });

  it('CZ: a row named after a part goes to the municipality with that part, not to the nearest one', async () => {
    // 537 01 serves Chrudim (parts Chrudim II, Chrudim III, Vestec, Topol), Sobětuchy (Sobětuchy, Pouchobrady) and Lány;
    // no row is named Chrudim, so the nearest located candidate (Sobětuchy, from its own row) took Chrudim's parts.
    const dir = tempDir('cz-parts');
    const psc = join(dir.path, 'psc.csv');
    const geo = join(dir.path, 'CZ.txt');
    const head = 'kodcobce,nazcobce,psc,kodobce,nazobce,kodokresu,nazokresu,kodkraj,nazevkraj,kodmomc,nazmomc,kodpobvod,nazpobvod';
    const parts: [string, string, string][] = [
      ['Chrudim II', '571164', 'Chrudim'], ['Chrudim III', '571164', 'Chrudim'], ['Vestec', '571164', 'Chrudim'], ['Topol', '571164', 'Chrudim'],
      ['Sobětuchy', '572012', 'Sobětuchy'], ['Pouchobrady', '572012', 'Sobětuchy'], ['Lány', '571652', 'Lány'],
    ];
    const rows = parts.map(([part, code, town], i) => `${9000 + i},${part},53701,${code},${town},3603,Chrudim,94,Pardubický,,,,`);
    // Chrudim's own row under its other code puts the town south of its parts (the mean of its codes' rows, in the real files).
    rows.push('9100,Chrudim,53703,571164,Chrudim,3603,Chrudim,94,Pardubický,,,,');
    writeFileSync(psc, [head, ...rows].join('\n') + '\n');
    const at: Record<string, [number, number]> = {
      'Chrudim II': [49.946, 15.787], 'Chrudim III': [49.946, 15.787], Vestec: [49.97, 15.808], Topol: [49.96, 15.84],
      Sobětuchy: [49.931, 15.763], Pouchobrady: [49.934, 15.768], Lány: [49.948, 15.729],
    };
    const line = (code: string, place: string, [lat, lng]: [number, number]) => `CZ\t${code}\t${place}\tPardubický kraj\t86\tChrudim\t3603\t\t\t${lat}\t${lng}\t4`;
    writeFileSync(geo, [...Object.entries(at).map(([place, p]) => line('537 01', place, p)), line('537 03', 'Chrudim', [49.88, 15.78])].join('\n') + '\n');
    const cz = await loadCatalogue({ country: 'CZ', sources: { pscList: psc, geonames: geo } });
    const { docs } = await collect({ country: 'CZ', file: geo, catalogue: cz.catalogue });
    expect(docs.find((d) => d.place_id === 'cz_p53701')).toMatchObject({ municipality_id: 'cz_m571164', municipality: 'Chrudim', county: 'Chrudim' });
    dir.remove();
  });

  it('CZ: a code whose rows name the district town itself goes to that town, not to a village with more rows', async () => {
    // 787 01 (the PSC list and GeoNames): Šumperk, Rapotín, Rejchartice, and Bratrušov with its part Osikov. Bratrušov has
    // two rows, Šumperk one, but 787 01 is Šumperk's post office: the widget filled the picked town with Bratrušov.
    const dir = tempDir('cz-seat');
    const psc = join(dir.path, 'psc.csv');
    const geo = join(dir.path, 'CZ.txt');
    const head = 'kodcobce,nazcobce,psc,kodobce,nazobce,kodokresu,nazokresu,kodkraj,nazevkraj,kodmomc,nazmomc,kodpobvod,nazpobvod';
    const parts: [string, string, string][] = [['Šumperk', '523704', 'Šumperk'], ['Rapotín', '540862', 'Rapotín'], ['Rejchartice', '553395', 'Rejchartice'], ['Bratrušov', '569437', 'Bratrušov'], ['Osikov', '569437', 'Bratrušov']];
    writeFileSync(psc, [head, ...parts.map(([part, code, town], i) => `${9000 + i},${part},78701,${code},${town},3809,Šumperk,124,Olomoucký,,,,`)].join('\n') + '\n');
    const at: Record<string, [number, number]> = { Osikov: [50.009, 16.954], Šumperk: [49.965, 16.971], Bratrušov: [50.002, 16.96], Rejchartice: [49.991, 17.06] };
    const line = (place: string, [lat, lng]: [number, number]) => `CZ\t787 01\t${place}\tOlomoucký kraj\t84\tŠumperk\t3809\t\t\t${lat}\t${lng}\t4`;
    writeFileSync(geo, Object.entries(at).map(([place, p]) => line(place, p)).join('\n') + '\n');
    const cz = await loadCatalogue({ country: 'CZ', sources: { pscList: psc, geonames: geo } });
    const { docs } = await collect({ country: 'CZ', file: geo, catalogue: cz.catalogue });
    expect(docs.find((d) => d.place_id === 'cz_p78701')).toMatchObject({ municipality_id: 'cz_m523704', municipality: 'Šumperk', county: 'Šumperk' });
    dir.remove();
  });

  it('CZ and SK: postal codes placed in the register catalogue, no municipality documents', async () => {
    const cz = await loadCatalogue({ country: 'CZ', sources: { pscList: join(FIXTURES, 'cz/psc-list.csv'), geonames: fixture('CZ') } });
    const { docs, report } = await collect({ country: 'CZ', file: fixture('CZ'), catalogue: cz.catalogue });
    expect(docs.every((d) => d.object === 'postal_code')).toBe(true);
    expect(report.municipalities).toBe(0);
    expect(docs.find((d) => d.place_id === 'cz_p11000')).toMatchObject({ municipality_id: 'cz_m554782', municipality: 'Praha' });
    const sk = await loadCatalogue({ country: 'SK', sources: { register: join(FIXTURES, 'sk/DavkaInit-catalogue.xml'), geonames: fixture('SK') } });
    const skDocs = await collect({ country: 'SK', file: fixture('SK'), catalogue: sk.catalogue });
    const placed = skDocs.docs.filter((d) => d.municipality_id);
    expect(placed.length).toBeGreaterThan(0);
    for (const d of placed) expect(sk.catalogue.municipalities.some((m) => m.place_id === d.municipality_id && m.county_id === d.county_id)).toBe(true);
    // Without a catalogue the codes still come, without context.
    const bare = await collect({ country: 'SK', file: fixture('SK') });
    expect(bare.report.withoutMunicipality).toBe(bare.report.postalCodes);
  });
});

describeWithData([sharedData('sk/davky.zip'), sharedData('geonames/SK.txt')], 'geonamesPlaceDocs on the real SK register and GeoNames', () => {
  it("places a city's numbered post offices and shared codes in its largest borough, never in the village nearest its generic position", async () => {
    const file = sharedData('geonames/SK.txt');
    const sk = await loadCatalogue({ country: 'SK', sources: { register: sharedData('sk/davky.zip'), geonames: file } });
    const { docs } = await collect({ country: 'SK', file, catalogue: sk.catalogue, skipMunicipalities: true });
    const town = (code: string) => docs.find((d) => d.place_id === `sk_p${code}`)?.municipality;
    // 040 01 names five Košice boroughs, one row each; Košice 2 and Bratislava 25 are post offices without an okres,
    // at the city's generic position (Kavečany's; Jasov, a village of its own, was nearest to many).
    expect([town('04001'), town('04002'), town('82005')]).toEqual(['Košice-Juh', 'Košice-Juh', 'Bratislava-Staré Mesto']);
    const rows = readFileSync(file, 'utf8').split('\n').map((l) => l.split('\t')).filter((c) => /^(Košice|Bratislava) \d+$/.test(c[2] ?? ''));
    expect(rows.length).toBeGreaterThan(300);
    for (const c of rows) expect([c[1], town(c[1]!.replace(/\D/g, ''))?.startsWith(`${c[2]!.split(' ')[0]}-`)]).toEqual([c[1], true]);
  });
});
