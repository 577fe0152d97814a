import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { Catalogue, emptyCatalogue } from '../catalogue.types';
import { hash53, LatestVersions, plPlaceDocs } from './pl-address-import';
import { prefixedStreetName } from './prg-dictionary';
import { PrgFeature, readPrgFeatures } from './prg-gml.reader';

const PL = resolve(__dirname, '../../fixtures/pl');
const GML_2012 = resolve(PL, 'PRG_PunktyAdresowe-2012-22.xml');
const GML_2021 = resolve(PL, 'PRG-punkty_adresowe-2021-14.gml');
const TERC = resolve(PL, 'TERC_Urzedowy_2024-01-01.csv');

async function importPl(sources: string[], catalogue?: Catalogue, batchSize?: number) {
  let report: AddressImportReport | null = null;
  const batches: PlaceDoc[][] = [];
  for await (const b of plPlaceDocs({ sources, catalogue, batchSize, onReport: (r) => (report = r) })) batches.push(b);
  return { docs: batches.flat(), report: report! as AddressImportReport, batches: batches.map((b) => b.length) };
}

const names = (docs: PlaceDoc[], object = 'address') => docs.filter((d) => d.object === object).map((d) => d.name);

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const d = docs.find((x) => x.place_id === id);
  if (!d) throw new Error(`no doc ${id}`);
  return d;
}

describe('plPlaceDocs: 2012 schema (PRG_PunktAdresowy)', () => {
  let run: Awaited<ReturnType<typeof importPl>>;
  beforeAll(async () => {
    run = await importPl([GML_2012]);
  });

  it('turns the points into addresses in the Polish convention, streets as written', () => {
    expect(names(run.docs)).toEqual([
      'Długa 15, 80-827 Gdańsk',
      'Plac Kaszubski 3-4, 80-855 Gdańsk',
      'Długa 17, 80-827 Gdańsk',
      'Długa 21, Gdańsk',
      'Osła 12, 59-706 Osła',
    ]);
  });

  it('takes TERYT ids through the komponent links and names from the file', () => {
    expect(byId(run.docs, 'pl_a81f3a6c2-9d4e-4b7a-8e1f-2c5d8a0b3e6f')).toMatchObject({
      country: 'PL', street: 'Długa', street_id: 'pl_s0933016-03891', street_number: null, number_kind: null, building_number: '15',
      postal_code: '80827', district: null, postal_place: null, municipality: 'Gdańsk', municipality_id: 'pl_m226101',
      county: 'Gdańsk', county_id: 'pl_c2261', region: 'pomorskie', region_id: 'pl_r22',
    });
    // A village without streets: the locality takes the street's place, in a gmina of another name.
    expect(byId(run.docs, 'pl_ac5d7eaf6-d182-4fbe-8253-6a9bce4f7cad')).toMatchObject({
      street: null, street_id: null, district: 'Osła', postal_place: 'Osła', building_number: '12',
      municipality: 'Gromadka', municipality_id: 'pl_m020103', county: 'powiat bolesławiecki', county_id: 'pl_c0201',
    });
  });

  it('reads the northing-first position of the urn srsName', () => {
    const d = byId(run.docs, 'pl_a81f3a6c2-9d4e-4b7a-8e1f-2c5d8a0b3e6f');
    expect(d.lat).toBeCloseTo(54.349, 4);
    expect(d.lng).toBeCloseTo(18.652, 4);
  });

  it('keeps the later wersjaId of a point listed twice, whatever the order', () => {
    const d = byId(run.docs, 'pl_aa3b5c8e4-bf60-4d9c-a031-4e7fac2d5a8b');
    expect(d.building_number).toBe('17');
    expect(d.lat).toBeCloseTo(54.34915, 5);
    expect(run.docs.filter((x) => x.place_id === d.place_id)).toHaveLength(1);
  });

  it('reports an unknown gmina (skipped) and a bad postal code (kept without it), never silently', () => {
    expect(run.report).toMatchObject({ country: 'PL', addresses: 5, skipped: 1, streets: 2, postalCodes: 3, municipalities: 2 });
    expect(run.report.errors).toEqual([
      expect.stringMatching(/PRG_PunktyAdresowe-2012-22\.xml line \d+: address b4c6d9f5-.*: kodPocztowy "8-0827" is not NN-NNN: kept without a postal code/),
      expect.stringMatching(/PRG_PunktyAdresowe-2012-22\.xml line \d+: address d6e8fb07-.*: unknown gmina: no TERYT gmina code among its komponent links \(gmina "Oliwa"\)/),
    ]);
  });

  it('derives streets, postal codes, gminas, powiats and voivodeships with weights', () => {
    expect(byId(run.docs, 'pl_s0933016-03891')).toMatchObject({ object: 'street', name: 'Długa', municipality: 'Gdańsk', postal_code: '80827', weight: 3 });
    expect(byId(run.docs, 'pl_p80827')).toMatchObject({ object: 'postal_code', municipality_id: 'pl_m226101', weight: 2 });
    expect(byId(run.docs, 'pl_m226101')).toMatchObject({ object: 'municipality', name: 'Gdańsk', county_id: 'pl_c2261', weight: 4 });
    expect(byId(run.docs, 'pl_c0201')).toMatchObject({ object: 'county', name: 'powiat bolesławiecki', region_id: 'pl_r02', weight: 1 });
    expect(byId(run.docs, 'pl_r22')).toMatchObject({ object: 'region', name: 'pomorskie', weight: 4 });
    expect(byId(run.docs, 'pl_r02')).toMatchObject({ object: 'region', name: 'dolnośląskie', weight: 1 });
  });
});

describe('plPlaceDocs: 2021 schema (AD_PunktAdresowy)', () => {
  let run: Awaited<ReturnType<typeof importPl>>;
  beforeAll(async () => {
    run = await importPl([GML_2021, TERC], undefined, 4);
  });

  it('resolves locality and street links, prefixing streets with their TERYT type', () => {
    expect(names(run.docs)).toEqual([
      'ul. Marszałkowska 10, 00-950 Warszawa',
      'ul. Marszałkowska 12a, 00-950 Warszawa',
      'ul. Marszałkowska 14b, 00-950 Warszawa',
      'al. Jana Pawła II 1-3, 00-951 Warszawa',
      'ul. Marszałkowska 16, Warszawa',
      'al. Jana Pawła II 5, 00-951 Warszawa',
      'os. Tysiąclecia 5, 05-500 Piaseczno',
      'Zalesie 12, 05-540 Zalesie',
    ]);
    expect(run.batches.slice(0, 2)).toEqual([4, 4]);
  });

  it('puts the town (type 4) and rural (type 5) parts of a gmina in one gmina, named from TERC', () => {
    const town = byId(run.docs, 'pl_a1b2c3d4e-5f6a-4b7c-9d0e-1f2a3b4c5d6e');
    const village = byId(run.docs, 'pl_a2c3d4e5f-6a7b-4c8d-0e1f-2a3b4c5d6e7f');
    for (const d of [town, village]) {
      expect(d).toMatchObject({ municipality_id: 'pl_m141804', municipality: 'Piaseczno', county_id: 'pl_c1418', county: 'powiat piaseczyński', region_id: 'pl_r14', region: 'mazowieckie' });
    }
    expect(town).toMatchObject({ street: 'os. Tysiąclecia', street_id: 'pl_s0921410-22710', district: null });
    expect(village).toMatchObject({ street: null, district: 'Zalesie', building_number: '12', postal_code: '05540' });
    expect(byId(run.docs, 'pl_m141804').weight).toBe(2);
    expect(byId(run.docs, 'pl_c1465')).toMatchObject({ name: 'Warszawa' });
  });

  it('reads the easting-first position of the short srsName', () => {
    const d = byId(run.docs, 'pl_ab5a7c9e1-3f5b-4d9f-b1d3-5f7b9d1f3b5d');
    expect(d.lat).toBeCloseTo(52.229, 4);
    expect(d.lng).toBeCloseTo(21.0125, 4);
  });

  it('keeps the later version of a changed point (14 became 14b and moved)', () => {
    const d = byId(run.docs, 'pl_ad7c9e1a3-5b7d-4f1b-d3f5-7b9d1f3b5d7f');
    expect(d).toMatchObject({ building_number: '14b', lat: 52.22965 });
    expect(names(run.docs)).not.toContain('ul. Marszałkowska 14, 00-950 Warszawa');
  });

  it('reports the point without a position, the bad postal code, the unknown gmina and the bad TERC row', () => {
    expect(run.report).toMatchObject({ addresses: 8, skipped: 1 });
    expect(byId(run.docs, 'pl_a0a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c5d')).toMatchObject({ lat: null, lng: null, postal_code: '00951' });
    expect(byId(run.docs, 'pl_af9e1a3c5-7d9f-4b3d-f5b7-9d1f3b5d7f9b')).toMatchObject({ postal_code: null });
    expect(run.report.errors).toEqual([
      expect.stringMatching(/TERC_Urzedowy_2024-01-01\.csv line 12: not a TERC unit/),
      expect.stringMatching(/line \d+: address f9e1a3c5-.*: kodPocztowy "0095O" is not NN-NNN/),
      expect.stringMatching(/line \d+: address 0a1b2c3d-.*: no position: kept without one/),
      expect.stringMatching(/line \d+: address 3d4e5f6a-.*: unknown gmina: its miejscowosc PL\.ZIPIN\.1418\.EMUiA_0999999_.* is not in the file/),
    ]);
  });

  it('without TERC or a catalogue, names the gmina after its locality and leaves the powiat out, reporting both', async () => {
    const bare = await importPl([GML_2021]);
    expect(byId(bare.docs, 'pl_a1b2c3d4e-5f6a-4b7c-9d0e-1f2a3b4c5d6e')).toMatchObject({ municipality: 'Piaseczno', county_id: null, county: null, region: 'mazowieckie' });
    expect(bare.report.errors).toEqual(expect.arrayContaining([
      'powiat 1418 has no name in the file, the catalogue or TERC: its addresses have no county',
      'gmina 141804 has no name in the file, the catalogue or TERC: named after its locality "Piaseczno"',
    ]));
  });
});

describe('plPlaceDocs with a catalogue', () => {
  function area(kind: 'region' | 'county' | 'municipality', code: string, name: string): PlaceDoc {
    return { ...emptyDoc('PL', kind, placeId('PL', kind, code), name), lat: 52, lng: 21 };
  }

  it('takes region, county and gmina names from the catalogue and reports the units it lacks', async () => {
    const c = emptyCatalogue('PL');
    c.regions.push(area('region', '14', 'mazowieckie'));
    c.counties.push(area('county', '1465', 'Warszawa'));
    c.municipalities.push({ ...area('municipality', '146501', 'Warszawa (catalogue)'), county_id: 'pl_c1465', county: 'Warszawa', region_id: 'pl_r14', region: 'mazowieckie' });
    const run = await importPl([GML_2021], c);
    expect(byId(run.docs, 'pl_ab5a7c9e1-3f5b-4d9f-b1d3-5f7b9d1f3b5d')).toMatchObject({ municipality: 'Warszawa (catalogue)', county: 'Warszawa' });
    expect(byId(run.docs, 'pl_m146501')).toMatchObject({ name: 'Warszawa (catalogue)', weight: 6 });
    expect(run.report.errors).toEqual(expect.arrayContaining(['pl_m141804 is not in the catalogue: named from TERC or the file']));
  });
});

describe('plPlaceDocs sources', () => {
  const dir = tempDir('pl-prg-');
  afterAll(() => dir.remove());

  it('reads both passes of every GML entry of a zip (as published: one zip of per-voivodeship files)', async () => {
    const zip = join(dir.path, 'PRG-punkty_adresowe.zip');
    writeTestZip(zip, [
      { name: 'PRG_PunktyAdresowe/12.xml', data: readFileSync(GML_2012), deflate: true },
      { name: 'PRG_PunktyAdresowe/14.gml', data: readFileSync(GML_2021), deflate: true },
      { name: 'PRG_PunktyAdresowe/README.txt', data: 'not a GML file' },
    ]);
    const fromZip = await importPl([zip, TERC]);
    const fromFiles = await importPl([GML_2012, GML_2021, TERC]);
    expect(fromZip.report).toMatchObject({ addresses: 13, skipped: 2 });
    expect(fromZip.docs).toEqual(fromFiles.docs);
  });

  it('takes the TERC table in XML, as a file or inside the zip, and does not read it as PRG', async () => {
    const xml = resolve(PL, 'terc-xml/TERC_Urzedowy_2024-01-01.xml');
    const zip = join(dir.path, 'PRG-with-TERC.zip');
    writeTestZip(zip, [
      { name: 'PRG_PunktyAdresowe/14.gml', data: readFileSync(GML_2021), deflate: true },
      { name: 'TERC_Urzedowy_2024-01-01.xml', data: readFileSync(xml), deflate: true },
    ]);
    const fromCsv = await importPl([GML_2021, TERC]);
    for (const sources of [[GML_2021, xml], [zip]]) {
      const run = await importPl(sources);
      expect(run.docs).toEqual(fromCsv.docs);
      expect(run.report.errors.filter((e) => /TERC_Urzedowy_2024-01-01\.xml/.test(e))).toEqual([expect.stringMatching(/not a TERC unit \(WOJ "14", POW "6X"/)]);
    }
  });

  it('reports a given file it cannot read instead of ignoring it', async () => {
    const other = join(dir.path, 'punkty.txt');
    writeFileSync(other, 'not PRG');
    const run = await importPl([other, GML_2021, TERC]);
    expect(run.report.addresses).toBe(8);
    expect(run.report.errors[0]).toBe(`${other}: neither PRG GML (.gml, .xml) nor a TERC table (TERC*.csv, TERC*.xml), nor a zip or folder of them: not read`);
  });
});

describe('LatestVersions', () => {
  const point = (id: string, version: string): PrgFeature => ({
    type: 'AD_PunktAdresowy', gmlId: '', text: new Map([['lokalnyId', [id]], ['wersjaId', [version]]]), href: new Map(), pos: null, srsName: null, line: 1,
  });

  it('lets a point listed once through, and a repeated one once, at its latest version', () => {
    const pts = [point('a', '2020-01-01T00:00:00Z'), point('b', '2021-01-01T00:00:00Z'), point('b', '2023-01-01T00:00:00Z'), point('b', '2022-01-01T00:00:00Z'), point('c', '2020-01-01T00:00:00Z'), point('c', '2020-01-01T00:00:00Z')];
    const latest = new LatestVersions();
    for (const p of pts) latest.see(p);
    latest.seal();
    expect(pts.map((p) => latest.isLatest(p))).toEqual([true, false, true, false, true, false]);
  });

  it('hashes ids to stable 53-bit integers', () => {
    expect(hash53('d7c9e1a3-5b7d-4f1b-d3f5-7b9d1f3b5d7f')).toBe(hash53('d7c9e1a3-5b7d-4f1b-d3f5-7b9d1f3b5d7f'));
    expect(hash53('a')).not.toBe(hash53('b'));
    expect(Number.isSafeInteger(hash53('x'.repeat(100)))).toBe(true);
  });
});

describe('PRG reader and street names', () => {
  it('streams features one by one and fails with the file name on broken XML', async () => {
    const broken = { name: 'broken.gml', size: 0, open: async () => Readable.from(['<gml:FeatureCollection><prgad:AD_PunktAdresowy gml:id="x">', '</gml:Feature']) };
    await expect(async () => {
      for await (const f of readPrgFeatures(broken, new Set(['AD_PunktAdresowy']))) void f;
    }).rejects.toThrow(/^broken\.gml: /);
  });

  it.each([
    ['1', 'Podgórna', 'ul. Podgórna'],
    ['2', 'Jana Pawła II', 'al. Jana Pawła II'],
    ['3', 'Grunwaldzki', 'pl. Grunwaldzki'],
    ['3', 'Plac Kasztanowy', 'Plac Kasztanowy'],
    ['11', 'Osiedle Grunwald', 'Osiedle Grunwald'],
    ['11', 'Tysiąclecia', 'os. Tysiąclecia'],
    ['15', 'Bulwary', 'Bulwary'],
    [null, 'Długa', 'Długa'],
  ])('rodzaj %s + %s -> %s', (kind, name, expected) => {
    expect(prefixedStreetName(kind, name)).toBe(expected);
  });
});
