import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeTestZip } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { loadGeonamesCatalogue } from '../geonames';
import { atPlaceDocs } from './at-address-import';
import { addressNumber, subNumber } from './at-address.builder';

const AT = resolve(__dirname, '../../fixtures/at');
const STICHTAG = join(AT, 'stichtag');
const AENDERUNG = join(AT, 'aenderung');

async function importAt(sources: string[], opts: { catalogue?: Catalogue; batchSize?: number } = {}) {
  let report: AddressImportReport | null = null;
  const batches: PlaceDoc[][] = [];
  for await (const b of atPlaceDocs({ sources, ...opts, onReport: (r) => (report = r) })) batches.push(b);
  return { docs: batches.flat(), report: report!, batches: batches.map((b) => b.length) };
}

const names = (docs: PlaceDoc[], object = 'address') => docs.filter((d) => d.object === object).map((d) => `${d.place_id} ${d.name}`);

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const d = docs.find((x) => x.place_id === id);
  if (!d) throw new Error(`no doc ${id}`);
  return d;
}

describe('Austrian house numbers', () => {
  it('writes the address number as on the house: 12, 14a, a range 1-3', () => {
    expect(addressNumber('12', '', '', '', '')).toBe('12');
    expect(addressNumber('14', 'a', '', '', '')).toBe('14a');
    expect(addressNumber('1', '', '-', '3', '')).toBe('1-3');
    expect(addressNumber('7', '', '', '9', 'b')).toBe('7/9b');
    expect(addressNumber('', '', '', '', '')).toBeNull();
  });

  it('appends building and staircase numbers of GEBAEUDE with their connectors', () => {
    expect(subNumber('/', '3', '', '', '', '')).toBe('/3');
    expect(subNumber('/', '3', '', '/', '5', '')).toBe('/3/5');
    expect(subNumber('', '2', 'a', '', '', '')).toBe('/2a');
    expect(subNumber('', '', '', '', '', '')).toBe('');
  });
});

describe('atPlaceDocs on the Stichtag tables', () => {
  let run: Awaited<ReturnType<typeof importAt>>;
  beforeAll(async () => {
    run = await importAt([STICHTAG]);
  });

  it('joins ADRESSE with STRASSE, GEMEINDE, ORTSCHAFT and the sub-addresses of GEBAEUDE', () => {
    expect(names(run.docs)).toEqual([
      'at_a6100001 Hauptstraße 12, 1010 Wien',
      'at_a6100001-002 Hauptstraße 12/3, 1010 Wien',
      'at_a6100001-003 Hauptstraße 12/3/5, 1010 Wien',
      'at_a6100002 Hauptstraße 14a, 1010 Wien',
      'at_a6100003 Hauptstraße 1-3, 1010 Wien',
      'at_a6100004 Stephansplatz 3, 1010 Wien',
      'at_a6100005 Stephansplatz 5, 1010 Wien',
      'at_a6100011 Getreidegasse 9, 5020 Salzburg',
      'at_a6100021 Maria-Theresien-Straße 18, 6020 Innsbruck',
      'at_a6100031 Leithaprodersdorf 27, 2443 Leithaprodersdorf',
      'at_a6100032 Hauptstraße 12, 2443 Leithaprodersdorf',
      'at_a6100091 Stephansplatz 9, 1010 Wien',
      'at_a6100092 Stephansplatz 11, 1010 Wien',
    ]);
  });

  it('fills the model of model.md: number in building_number, Ortschaft as district, ids from GKZ', () => {
    expect(byId(run.docs, 'at_a6100001')).toMatchObject({
      country: 'AT', street: 'Hauptstraße', street_id: 'at_s190001', street_number: null, number_kind: null, building_number: '12',
      postal_code: '1010', district: 'Wien,Innere Stadt', municipality: 'Wien', municipality_id: 'at_m90001', region: 'Wien', region_id: 'at_r9',
      county_id: null, county: null, postal_place: 'Wien',
    });
    expect(byId(run.docs, 'at_a6100001-003')).toMatchObject({ building_number: '12/3/5', street_id: 'at_s190001', postal_code: '1010' });
    expect(byId(run.docs, 'at_a6100011')).toMatchObject({ region: 'Salzburg', region_id: 'at_r5', municipality_id: 'at_m50101' });
  });

  it('writes a village whose only "street" is its Ortschaft as `Ortschaft 27`, without a street', () => {
    expect(byId(run.docs, 'at_a6100031')).toMatchObject({ street: null, street_id: null, district: 'Leithaprodersdorf', building_number: '27' });
  });

  it('converts RW/HW of each strip (M28, M31, M34) to WGS84, buildings at their own position', () => {
    const near = (d: PlaceDoc, lat: number, lng: number) => {
      expect(d.lat).toBeCloseTo(lat, 5);
      expect(d.lng).toBeCloseTo(lng, 5);
    };
    near(byId(run.docs, 'at_a6100001'), 48.209, 16.37);
    near(byId(run.docs, 'at_a6100001-002'), 48.2092, 16.37);
    near(byId(run.docs, 'at_a6100011'), 47.8, 13.043);
    near(byId(run.docs, 'at_a6100021'), 47.264, 11.3945);
  });

  it('reports invalid rows: unknown SKZ and a bad ADRCD are skipped; bad coordinates and an unknown EPSG keep the address without a position', () => {
    expect(run.report).toMatchObject({ country: 'AT', addresses: 13, skipped: 2 });
    expect(run.report.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ADRESSE\.csv line 11: ADRCD 6100090: SKZ "999999" is not in STRASSE/),
        expect.stringMatching(/ADRESSE\.csv line 12: ADRCD 6100091: RW\/HW "12a45\.3"\/"340000\.00" are not numbers: kept without a position/),
        expect.stringMatching(/ADRESSE\.csv line 13: ADRCD 6100092: EPSG "4326" is not 31254, 31255 or 31256: kept without a position/),
        expect.stringMatching(/ADRESSE\.csv line 14: ADRCD "X6100093" is not a number/),
        'Bezirk 900 is not in the catalogue: its addresses have no county',
      ]),
    );
    expect(byId(run.docs, 'at_a6100091')).toMatchObject({ lat: null, lng: null });
    expect(run.docs.some((d) => d.place_id === 'at_a6100090')).toBe(false);
  });

  it('derives streets, postal codes, municipalities and regions', () => {
    expect(names(run.docs, 'street')).toEqual([
      'at_s110002 Hauptstraße', 'at_s150001 Getreidegasse', 'at_s170001 Maria-Theresien-Straße', 'at_s190001 Hauptstraße', 'at_s190002 Stephansplatz',
    ]);
    expect(byId(run.docs, 'at_s190001')).toMatchObject({ weight: 5, postal_code: '1010', municipality: 'Wien', district: 'Wien,Innere Stadt' });
    expect(byId(run.docs, 'at_p1010')).toMatchObject({ object: 'postal_code', name: '1010', municipality: 'Wien', weight: 9 });
    expect(byId(run.docs, 'at_m90001')).toMatchObject({ object: 'municipality', name: 'Wien', region_id: 'at_r9', weight: 9 });
    expect(byId(run.docs, 'at_r7')).toMatchObject({ object: 'region', name: 'Tirol', weight: 1 });
    expect(run.report).toMatchObject({ streets: 5, postalCodes: 4, municipalities: 4 });
  });
});

describe('atPlaceDocs with a later source and a catalogue', () => {
  it('keeps the later version of a record that a later source carries again', async () => {
    const { docs, report } = await importAt([STICHTAG, AENDERUNG]);
    expect(byId(docs, 'at_a6100005')).toMatchObject({ name: 'Stephansplatz 5a, 1010 Wien', building_number: '5a' });
    expect(byId(docs, 'at_a6100006').name).toBe('Stephansplatz 6, 1010 Wien');
    expect(docs.filter((d) => d.place_id === 'at_a6100005')).toHaveLength(1);
    expect(report.addresses).toBe(14);
    expect(byId(docs, 'at_s190002').weight).toBe(5);
  });

  it('gives the same docs when a source is read twice (each record once, its last version)', async () => {
    const once = await importAt([STICHTAG, AENDERUNG]);
    const twice = await importAt([STICHTAG, AENDERUNG, STICHTAG, AENDERUNG]);
    expect(twice.docs).toEqual(once.docs);
    expect(twice.report).toMatchObject({ addresses: once.report.addresses, skipped: once.report.skipped });
  });

  it('takes region, county and municipality names from the GeoNames catalogue when given', async () => {
    const catalogue = await loadGeonamesCatalogue('AT', join(AT, 'geonames-AT.txt'));
    const { docs, report } = await importAt([STICHTAG], { catalogue });
    expect(byId(docs, 'at_a6100021')).toMatchObject({ county_id: 'at_c701', county: 'Innsbruck Stadt', region: 'Tirol', municipality: 'Innsbruck' });
    expect(byId(docs, 'at_a6100031')).toMatchObject({ county_id: 'at_c103', county: 'Eisenstadt-Umgebung', region: 'Burgenland' });
    expect(byId(docs, 'at_c103')).toMatchObject({ object: 'county', name: 'Eisenstadt-Umgebung', weight: 2 });
    expect(byId(docs, 'at_a6100001')).toMatchObject({ county_id: 'at_c900', county: 'Wien (Stadt)', municipality: 'Wien' });
    expect(report.errors.filter((e) => e.includes('is not in the catalogue'))).toEqual([]);
  });

  it('reads a table layout without HNR_ADR_ZUSAMMEN and ZUSTELLORT, writing the Ortschaft after the PLZ', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-at-old-'));
    try {
      const bom = '\uFEFF';
      writeFileSync(join(dir, 'STRASSE.csv'), `${bom}"SKZ";"STRASSENNAME";"STRASSENNAMENZUSATZ";"SZUSADRBEST";"GKZ"\r\n"170002";"Poltenweg";"";"0";"70101"\r\n"170003";"Am Bach";"West";"1";"70101"\r\n`);
      writeFileSync(join(dir, 'GEMEINDE.csv'), `${bom}"GKZ";"GEMEINDENAME"\r\n"70101";"Innsbruck"\r\n`);
      writeFileSync(join(dir, 'ORTSCHAFT.csv'), `${bom}"GKZ";"OKZ";"ORTSNAME"\r\n"70101";"16402";"Vill"\r\n`);
      const cols = '"ADRCD";"GKZ";"OKZ";"PLZ";"SKZ";"ZAEHLSPRENGEL";"HAUSNRTEXT";"HAUSNRZAHL1";"HAUSNRBUCHSTABE1";"HAUSNRVERBINDUNG1";"HAUSNRZAHL2";"HAUSNRBUCHSTABE2";"HAUSNRBEREICH";"GNRADRESSE";"HOFNAME";"RW";"HW";"EPSG";"QUELLADRESSE";"BESTIMMUNGSART"';
      const rows = [
        '"6200001";"70101";"16402";"6080";"170002";"70101700";"";"40";"";"";"";"";"keine Angabe";"0";"";"80900.00";"234000.00";"31254";"G";"Z"',
        '"6200002";"70101";"16402";"6080";"170003";"70101700";"";"2";"";"";"";"";"keine Angabe";"0";"";"80950.00";"234050.00";"31254";"G";"Z"',
      ];
      writeFileSync(join(dir, 'ADRESSE.csv'), `${bom}${cols}\r\n${rows.join('\r\n')}\r\n`);
      const { docs, report } = await importAt([dir]);
      expect(names(docs)).toEqual(['at_a6200001 Poltenweg 40, 6080 Vill', 'at_a6200002 Am Bach West 2, 6080 Vill']);
      expect(report).toMatchObject({ addresses: 2, skipped: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the same tables from the product zip (UTF-8 with BOM, members in a folder), in batches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-at-'));
    try {
      const zip = join(dir, 'Adresse_Relationale_Tabellen-Stichtagsdaten.zip');
      const tables = ['ADRESSE', 'GEBAEUDE', 'STRASSE', 'GEMEINDE', 'ORTSCHAFT'];
      writeTestZip(zip, tables.map((t) => ({ name: `Adresse_Relationale_Tabellen/${t}.csv`, data: readFileSync(join(STICHTAG, `${t}.csv`)), deflate: true })));
      const fromZip = await importAt([zip], { batchSize: 4 });
      const fromDir = await importAt([STICHTAG]);
      expect(fromZip.docs).toEqual(fromDir.docs);
      expect(fromZip.batches.every((n) => n >= 1 && n <= 4)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails clearly when the sources hold no ADRESSE or STRASSE table', async () => {
    await expect(importAt([AENDERUNG])).rejects.toThrow(/no STRASSE\.csv/);
    await expect(importAt([])).rejects.toThrow(/sources/);
  });
});
