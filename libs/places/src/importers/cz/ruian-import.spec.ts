import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { jtskToWgs84 } from '../../geo/sjtsk';
import { AddressImportReport, ruianPlaceDocs } from '../address-import';
import { readRuianCsv, RuianRowError } from './ruian-csv.reader';
import { writeTestZip } from '@lookup/shared/testing';

const FIXTURES = resolve(__dirname, '../../fixtures');
const CSV_DIR = join(FIXTURES, 'ruian/CSV');
const PSC_LIST = join(FIXTURES, 'cz/psc-list.csv');

async function importAll(zipOrDir: string, batchSize?: number): Promise<{ batches: PlaceDoc[][]; docs: PlaceDoc[]; report: AddressImportReport }> {
  let report: AddressImportReport | null = null;
  const batches: PlaceDoc[][] = [];
  for await (const b of ruianPlaceDocs({ zipOrDir, catalogue: { pscList: PSC_LIST }, batchSize, onReport: (r) => (report = r) })) batches.push(b);
  return { batches, docs: batches.flat(), report: report! };
}

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const d = docs.find((x) => x.place_id === id);
  if (!d) throw new Error(`no doc ${id}`);
  return d;
}

describe('readRuianCsv', () => {
  it('reads the windows-1250 header with diacritics and reports bad rows with their line', async () => {
    const errors: RuianRowError[] = [];
    const rows = [];
    for await (const r of readRuianCsv(join(CSV_DIR, 'fixture_500011_ADR.csv'), (e) => errors.push(e))) rows.push(r);
    expect(rows.map((r) => [r.admCode, r.kind, r.houseNumber, r.orientation, r.streetName])).toEqual([
      ['4192575', 'cp', '1', null, 'Přílucká'],
      ['4192583', 'cp', '2', '12', 'Přílucká'],
      ['4192591', 'cp', '3', '14a', 'Přílucká'],
      ['4192605', 'ce', '59', null, null],
    ]);
    expect(rows[0]).toMatchObject({ municipalityName: 'Želechovice nad Dřevnicí', partName: 'Želechovice nad Dřevnicí', postalCode: '76311', x: 1166540.03, y: 515561.05, line: 2 });
    expect(errors).toEqual([
      { line: 6, message: 'Kód ADM 4192613: Číslo domovní "1a" is not a number' },
      { line: 7, message: 'Kód ADM 4192621: PSČ "7631" is not five digits' },
    ]);
  });

  it('takes the header without diacritics too, either coordinate sign, and names each bad value', async () => {
    const header = 'Kod ADM;Kod obce;Nazev obce;Kod MOMC;Nazev MOMC;Kod obvodu Prahy;Nazev obvodu Prahy;Kod casti obce;Nazev casti obce;Kod ulice;Nazev ulice;Typ SO;Cislo domovni;Cislo orientacni;Znak cisla orientacniho;PSC;Souradnice Y;Souradnice X;Plati Od';
    const row = (adm: string, rest: string) => `${adm};500011;Obec;;;;;1;Obec;;;${rest};2014-02-12T00:00:00`;
    const text = [
      header,
      row('1', 'c.p.;5;7;B;763 11;-515561.05;-1166540.03'),
      row('2', 'c.x.;5;;;76311;515561.05;1166540.03'),
      row('3', 'č.p.;5;;b;76311;515561.05;1166540.03'),
      row('4', 'č.p.;5;;;76311;1166540.03;515561.05'),
      row('5', 'č.p.;5;;;76311;515561.05;'),
      '6;500011;Obec',
    ].join('\n');
    const errors: RuianRowError[] = [];
    const rows = [];
    for await (const r of readRuianCsv(Readable.from([Buffer.from(text, 'utf8')]), (e) => errors.push(e), 'utf-8')) rows.push(r);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ admCode: '1', kind: 'cp', orientation: '7b', postalCode: '76311', x: 1166540.03, y: 515561.05 });
    expect(errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '3: Kód ADM 2: Typ SO "c.x." is neither č.p. nor č.ev.',
      '4: Kód ADM 3: orientation letter "b" without a number or not one letter',
      '5: Kód ADM 4: coordinates Y "1166540.03" X "515561.05" are not S-JTSK in the Czech range',
      '6: Kód ADM 5: coordinates Y "515561.05" X "" are not S-JTSK in the Czech range',
      '7: 3 fields where the header has 19',
    ]);
  });

  it('fails clearly on a file that is not a RUIAN address CSV', async () => {
    const it = readRuianCsv(PSC_LIST, () => undefined, 'utf-8');
    await expect(it.next()).rejects.toThrow(/header lacks kod adm/);
  });
});

describe('ruianPlaceDocs on the fixture', () => {
  let run: Awaited<ReturnType<typeof importAll>>;
  beforeAll(async () => {
    run = await importAll(CSV_DIR);
  });

  it('yields every valid address and reports the invalid rows, not silently', () => {
    const addresses = run.docs.filter((d) => d.object === 'address');
    expect(addresses).toHaveLength(9);
    expect(run.report).toMatchObject({ country: 'CZ', addresses: 9, skipped: 2, streets: 2, postalCodes: 4, municipalities: 4 });
    expect(run.report.errors).toEqual(
      expect.arrayContaining([
        'fixture_500011_ADR.csv line 6: Kód ADM 4192613: Číslo domovní "1a" is not a number',
        'fixture_500011_ADR.csv line 7: Kód ADM 4192621: PSČ "7631" is not five digits',
        'municipality 505927 "Opava" is not in the catalogue: its addresses have no county or region',
      ]),
    );
    expect(run.report.seconds).toBeGreaterThan(0);
  });

  it('c.p. without c.o., with c.o., c.o. with a letter; county and region from the catalogue', () => {
    expect(byId(run.docs, 'cz_a4192575')).toMatchObject({
      object: 'address', name: 'Přílucká 1, 763 11 Želechovice nad Dřevnicí', street: 'Přílucká', street_id: 'cz_s796824',
      street_number: '1', number_kind: 'cp', building_number: null, postal_code: '76311', district: 'Želechovice nad Dřevnicí',
      municipality: 'Želechovice nad Dřevnicí', municipality_id: 'cz_m500011', county: 'Zlín', county_id: 'cz_c3705', region: 'Zlínský', region_id: 'cz_r141',
    });
    expect(byId(run.docs, 'cz_a4192583')).toMatchObject({ name: 'Přílucká 2/12, 763 11 Želechovice nad Dřevnicí', building_number: '12' });
    expect(byId(run.docs, 'cz_a4192591')).toMatchObject({ name: 'Přílucká 3/14a, 763 11 Želechovice nad Dřevnicí', building_number: '14a' });
  });

  it('positions are the S-JTSK coordinates converted to WGS84', () => {
    const d = byId(run.docs, 'cz_a4192575');
    const want = jtskToWgs84(1166540.03, 515561.05);
    expect(d.lat).toBeCloseTo(want.lat, 6);
    expect(d.lng).toBeCloseTo(want.lng, 6);
    expect(byId(run.docs, 'cz_a5000002')).toMatchObject({ lat: null, lng: null, name: 'Petrov nad Desnou 8, 788 14 Petrov nad Desnou' });
  });

  it('evidence number and village without street', () => {
    expect(byId(run.docs, 'cz_a4192605')).toMatchObject({ name: 'Želechovice nad Dřevnicí č. ev. 59, 763 11 Želechovice nad Dřevnicí', number_kind: 'ce', street: null, street_id: null });
    expect(byId(run.docs, 'cz_a5000001')).toMatchObject({ name: 'Terezín 59, 788 14 Petrov nad Desnou', district: 'Terezín', street: null });
  });

  it('a Praha row with MOMC and obvod: the postal line names the district', () => {
    expect(byId(run.docs, 'cz_a21700001')).toMatchObject({
      name: 'Sokolovská 1060/12, 186 00 Praha 8', municipality: 'Praha', municipality_id: 'cz_m554782', city_district: 'Praha 8',
      postal_place: 'Praha 8', district: 'Karlín', county: 'Hlavní město Praha',
    });
  });

  it('a municipality the catalogue lacks keeps its RUIAN name without county or region', () => {
    expect(byId(run.docs, 'cz_a6000001')).toMatchObject({ municipality: 'Opava', municipality_id: 'cz_m505927', county: null, region: null, city_district: 'Podvihov', name: 'Podvihov 59, 747 06 Opava' });
  });

  it('derives streets with centroid and weight', () => {
    const street = byId(run.docs, 'cz_s796824');
    const members = ['cz_a4192575', 'cz_a4192583', 'cz_a4192591'].map((id) => byId(run.docs, id));
    expect(street).toMatchObject({ object: 'street', name: 'Přílucká', street: 'Přílucká', street_id: 'cz_s796824', weight: 3, municipality_id: 'cz_m500011', county_id: 'cz_c3705', postal_code: '76311', district: 'Želechovice nad Dřevnicí' });
    expect(street.lat).toBeCloseTo(members.reduce((s, d) => s + d.lat!, 0) / 3, 6);
    expect(street.lng).toBeCloseTo(members.reduce((s, d) => s + d.lng!, 0) / 3, 6);
  });

  it('derives postal codes keyed by country + PSC, with the majority municipality', () => {
    expect(byId(run.docs, 'cz_p76311')).toMatchObject({ object: 'postal_code', name: '76311', postal_code: '76311', weight: 4, municipality_id: 'cz_m500011', municipality: 'Želechovice nad Dřevnicí', region: 'Zlínský' });
    // 3 addresses, one without a position: weight counts it, the centroid does not.
    const p = byId(run.docs, 'cz_p78814');
    const located = ['cz_a5000001', 'cz_a5000003'].map((id) => byId(run.docs, id));
    expect(p.weight).toBe(3);
    expect(p.lat).toBeCloseTo((located[0]!.lat! + located[1]!.lat!) / 2, 6);
  });

  it('derives municipalities with the catalogue ids and names, centroid and address count', () => {
    expect(byId(run.docs, 'cz_m500011')).toMatchObject({ object: 'municipality', name: 'Želechovice nad Dřevnicí', weight: 4, county_id: 'cz_c3705', region_id: 'cz_r141' });
    expect(byId(run.docs, 'cz_m554782')).toMatchObject({ name: 'Praha', weight: 1, lat: byId(run.docs, 'cz_a21700001').lat });
    expect(byId(run.docs, 'cz_m505927')).toMatchObject({ name: 'Opava', weight: 1, county_id: null });
  });

  it('derives counties and regions: the catalogue docs with centroid and address count', () => {
    expect(byId(run.docs, 'cz_c3705')).toMatchObject({ object: 'county', name: 'Zlín', weight: 4, region_id: 'cz_r141' });
    expect(byId(run.docs, 'cz_r141')).toMatchObject({ object: 'region', name: 'Zlínský', weight: 4, lat: byId(run.docs, 'cz_m500011').lat });
    expect(byId(run.docs, 'cz_r124')).toMatchObject({ name: 'Olomoucký', weight: 3 });
  });

  it('streams addresses first, then streets, postal codes, municipalities, counties, regions; ids unique', () => {
    const order = run.docs.map((d) => d.object);
    const firstDerived = order.findIndex((o) => o !== 'address');
    expect(order.slice(0, firstDerived).every((o) => o === 'address')).toBe(true);
    expect(order.slice(firstDerived)).toEqual([
      ...['street', 'street', 'postal_code', 'postal_code', 'postal_code', 'postal_code'],
      ...['municipality', 'municipality', 'municipality', 'municipality', 'county', 'county', 'county', 'region', 'region', 'region'],
    ]);
    expect(new Set(run.docs.map((d) => d.place_id)).size).toBe(run.docs.length);
  });

  it('reads the same files from a zip, in batches of the asked size, with the same result', async () => {
    const tmp = tempDir();
    try {
      const zip = join(tmp.path, '20231231_OB_ADR_csv.zip');
      const entries = readdirSync(CSV_DIR).map((name) => ({ name: `CSV/${name}`, data: readFileSync(join(CSV_DIR, name)), deflate: true }));
      writeTestZip(zip, [{ name: 'CSV/', data: '' }, ...entries]);
      const zipped = await importAll(zip, 4);
      expect(zipped.batches.every((b) => b.length > 0 && b.length <= 4)).toBe(true);
      const sort = (ds: PlaceDoc[]) => [...ds].sort((a, b) => a.place_id.localeCompare(b.place_id));
      expect(sort(zipped.docs)).toEqual(sort(run.docs));
    } finally {
      tmp.remove();
    }
  });

  it('rejects a batch size that is not a positive integer', async () => {
    await expect(importAll(CSV_DIR, 0)).rejects.toThrow('batchSize must be a positive integer');
  });
});
