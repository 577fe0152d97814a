import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeTestZip } from '@lookup/shared/testing';
import { emptyDoc, PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { Catalogue, emptyCatalogue } from '../catalogue.types';
import { chPlaceDocs } from './ch-import';
import { lv95ToWgs84 } from './lv95';

const CH = resolve(__dirname, '../../fixtures/ch');
const MAIN = join(CH, 'amtliches-gebaeudeadressverzeichnis_ch_2056.csv');
const LATER = join(CH, 'amtliches-gebaeudeadressverzeichnis_ch_2056-later.csv');

async function importCh(sources: string[], catalogue?: Catalogue, batchSize?: number) {
  let report: AddressImportReport | null = null;
  const batches: PlaceDoc[][] = [];
  for await (const b of chPlaceDocs({ sources, catalogue, batchSize, onReport: (r) => (report = r) })) batches.push(b);
  return { docs: batches.flat(), report: report!, batches: batches.map((b) => b.length) };
}

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const found = docs.filter((x) => x.place_id === id);
  if (!found.length) throw new Error(`no doc ${id}`);
  return found[found.length - 1]!;
}

/** Metres between two WGS84 points (equirectangular: exact enough over a few metres). */
function metres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const k = Math.PI / 180;
  const x = (b.lng - a.lng) * k * Math.cos(((a.lat + b.lat) / 2) * k);
  return Math.hypot(x, (b.lat - a.lat) * k) * 6_371_000;
}

const dms = (d: number, m: number, s: number) => d + m / 60 + s / 3600;

describe('LV95 -> WGS84', () => {
  it('matches swisstopo published points within 0.5 m', () => {
    // swisstopo, "Approximate formulas for the transformation between Swiss projection
    // coordinates and WGS84", worked example: E 2 700 000, N 1 100 000 = 46°02'38.87" N, 8°43'49.79" E.
    expect(metres(lv95ToWgs84(2_700_000, 1_100_000), { lat: dms(46, 2, 38.87), lng: dms(8, 43, 49.79) })).toBeLessThan(0.5);
    // The projection's origin, the old observatory of Bern (E 2 600 000, N 1 200 000), published
    // rounded to 0.1" (46°57'03.9" N, 7°26'19.1" E): within the rounding (about 3 m).
    expect(metres(lv95ToWgs84(2_600_000, 1_200_000), { lat: dms(46, 57, 3.9), lng: dms(7, 26, 19.1) })).toBeLessThan(3);
  });
});

describe('chPlaceDocs', () => {
  let run: Awaited<ReturnType<typeof importCh>>;
  beforeAll(async () => {
    run = await importCh([MAIN]);
  });

  it('turns real rows into addresses with the whole house number and the Swiss formatting', () => {
    const addresses = run.docs.filter((d) => d.object === 'address').map((d) => `${d.place_id} ${d.name}`);
    expect(addresses).toEqual([
      'ch_a190000001 Bahnhofstrasse 1, 8001 Zürich',
      'ch_a190000002 Bahnhofstrasse 10, 8001 Zürich',
      'ch_a190000003 Bahnhofstrasse 1, 5000 Aarau',
      'ch_a190000004 Rue du Rhône 5, 1204 Genève',
      'ch_a190000005 Via Nassa 12, 6900 Lugano',
      'ch_a190000006 Seftigenstrasse 264, 3084 Wabern',
      'ch_a190000007 Marktgasse / Rue du Marché 12a, 2502 Biel/Bienne',
      'ch_a190000008 Bahnhofstrasse 31.1, 8001 Zürich',
      'ch_a190000011 Rue du Rhône 7, 1204 Genève',
    ]);
    expect(byId(run.docs, 'ch_a190000001')).toMatchObject({
      country: 'CH', street: 'Bahnhofstrasse', street_id: 'ch_s19000101', street_number: null, number_kind: null, building_number: '1',
      postal_code: '8001', municipality: 'Zürich', municipality_id: 'ch_m261', region_id: 'ch_rzh', region: 'Zürich',
      county: null, county_id: null, district: null, postal_place: null,
    });
    expect(metres(byId(run.docs, 'ch_a190000001') as { lat: number; lng: number }, { lat: 47.377, lng: 8.5398 })).toBeLessThan(0.05);
  });

  it('writes the postal locality when it is not the municipality (Wabern in Köniz)', () => {
    expect(byId(run.docs, 'ch_a190000006')).toMatchObject({ municipality: 'Köniz', district: 'Wabern', postal_place: 'Wabern', region_id: 'ch_rbe' });
  });

  it('reports the invalid row, the bad position and the planned address instead of dropping them silently', () => {
    expect(run.report).toMatchObject({ country: 'CH', addresses: 9, skipped: 2 });
    expect(run.report.errors).toEqual([
      expect.stringMatching(/line 11: EGAID 190000010: ZIP_LABEL "80O1 Zürich" is not/),
      expect.stringMatching(/line 12: EGAID 190000011: ADR_EASTING\/ADR_NORTHING are not LV95 coordinates in Switzerland: kept without a position/),
      '1 rows with ADR_STATUS "planned" are not existing addresses: not imported',
    ]);
    expect(byId(run.docs, 'ch_a190000011')).toMatchObject({ lat: null, lng: null });
  });

  it('derives streets, postal codes, municipalities and cantons', () => {
    expect(byId(run.docs, 'ch_s19000101')).toMatchObject({ object: 'street', name: 'Bahnhofstrasse', weight: 3, postal_code: '8001', municipality_id: 'ch_m261' });
    expect(byId(run.docs, 'ch_p8001')).toMatchObject({ object: 'postal_code', name: '8001', weight: 3, municipality: 'Zürich' });
    expect(byId(run.docs, 'ch_m355')).toMatchObject({ object: 'municipality', name: 'Köniz', weight: 1 });
    expect(byId(run.docs, 'ch_rzh')).toMatchObject({ object: 'region', name: 'Zürich', weight: 3 });
    expect(run.report).toMatchObject({ streets: 6, postalCodes: 6, municipalities: 6 });
  });

  it('takes names and the district (county) from a catalogue when one is given', async () => {
    const cat = emptyCatalogue('CH');
    const region = { ...emptyDoc('CH', 'region', 'ch_rzh', 'Kanton Zürich'), region_id: 'ch_rzh', region: 'Kanton Zürich' };
    const county = { ...emptyDoc('CH', 'county', 'ch_c112', 'Bezirk Zürich'), region_id: 'ch_rzh', region: 'Kanton Zürich', county_id: 'ch_c112', county: 'Bezirk Zürich' };
    const zurich = { ...county, object: 'municipality' as const, place_id: 'ch_m261', name: 'Zürich', municipality_id: 'ch_m261', municipality: 'Zürich' };
    cat.regions.push(region);
    cat.counties.push(county);
    cat.municipalities.push(zurich);
    const { docs } = await importCh([MAIN], cat);
    expect(byId(docs, 'ch_a190000001')).toMatchObject({ county_id: 'ch_c112', county: 'Bezirk Zürich', region: 'Kanton Zürich' });
    expect(byId(docs, 'ch_c112')).toMatchObject({ object: 'county', name: 'Bezirk Zürich', weight: 3 });
    expect(byId(docs, 'ch_a190000004')).toMatchObject({ county_id: null, region: 'Genève' });
  });

  it('keeps the later version of a record that appears again, and reports it', async () => {
    const { docs, report } = await importCh([MAIN, LATER]);
    expect(byId(docs, 'ch_a190000005')).toMatchObject({ name: 'Via Nassa 14, 6900 Lugano', building_number: '14' });
    expect(report.addresses).toBe(9);
    expect(report.errors).toContainEqual(expect.stringMatching(/-later\.csv line 2: EGAID 190000005 appears again: this later row replaces the earlier one/));
  });

  it('reads the CSV from a zip and batches the output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-ch-'));
    try {
      const { readFileSync } = await import('node:fs');
      writeTestZip(join(dir, 'ch.zip'), [
        { name: 'amtliches-gebaeudeadressverzeichnis_ch_2056.csv', data: readFileSync(MAIN), deflate: true },
        { name: 'readme.txt', data: 'not an address file' },
      ]);
      const { docs, batches } = await importCh([join(dir, 'ch.zip')], undefined, 4);
      expect(docs.filter((d) => d.object === 'address')).toHaveLength(9);
      expect(batches[0]).toBe(4);
      expect(batches.every((n) => n <= 4)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the missing columns of a file that is not the register', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-ch-'));
    try {
      writeFileSync(join(dir, 'x.csv'), 'STN_LABEL;ADR_NUMBER\nBahnhofstrasse;1\n');
      await expect(importCh([join(dir, 'x.csv')])).rejects.toThrow(/no column ADR_EGAID, STR_ESID, ZIP_LABEL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
