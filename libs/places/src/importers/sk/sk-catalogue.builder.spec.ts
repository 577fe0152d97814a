import { resolve } from 'node:path';
import { Catalogue } from '../catalogue.types';
import { buildSkCatalogue, parseRegisterDate, SkCatalogueBuilder, skRegionName } from './sk-catalogue.builder';
import { RegisterChange, readRegisterChanges } from './sk-register-xml.reader';

const FIXTURE = resolve(__dirname, '../../fixtures/sk/DavkaInit-catalogue.xml');

function rec(over: Partial<RegisterChange> & Pick<RegisterChange, 'type' | 'objectId' | 'versionId'>): RegisterChange {
  return { operation: 'INSERT', parents: {}, fields: {}, source: 'test', ...over };
}

describe('SK catalogue from the fixture', () => {
  let cat: Catalogue;
  beforeAll(async () => {
    cat = await buildSkCatalogue(readRegisterChanges(FIXTURE), new Date('2024-01-01T00:00:00Z'));
  });

  it('keeps current regions under their newest codelist code, without placeholders or history', () => {
    expect(cat.regions.map((r) => [r.place_id, r.name, r.object, r.region_id])).toEqual([
      ['sk_rsk010', 'Bratislavský', 'region', null],
      ['sk_rsk031', 'Žilinský', 'region', null],
      ['sk_rsk032', 'Banskobystrický', 'region', null],
    ]);
  });

  it('gives counties their region', () => {
    expect(cat.counties.map((c) => [c.place_id, c.name, c.region_id, c.region])).toEqual([
      ['sk_csk0101', 'Bratislava I', 'sk_rsk010', 'Bratislavský'],
      ['sk_csk0106', 'Malacky', 'sk_rsk010', 'Bratislavský'],
      ['sk_csk0315', 'Liptovský Mikuláš', 'sk_rsk031', 'Žilinský'],
      ['sk_csk031b', 'Žilina', 'sk_rsk031', 'Žilinský'],
      ['sk_csk0321', 'Banská Bystrica', 'sk_rsk032', 'Banskobystrický'],
      ['sk_csk032b', 'Zvolen', 'sk_rsk032', 'Banskobystrický'],
    ]);
  });

  it('gives municipalities county and region, applies the UPDATE rename and the DELETE, drops the closed one', () => {
    const m = cat.municipalities;
    expect(m.map((x) => x.name)).toEqual([
      'Bratislava-Staré Mesto', 'Malacky', 'Stupava', 'Liptovský Mikuláš', 'Liptovský Ján', 'Žilina',
      'Rajecké Teplice', 'Banská Bystrica', 'Čerín', 'Slovenská Ľupča', 'Zvolen', 'Sliač',
    ]);
    expect(m.find((x) => x.name === 'Liptovský Ján')).toMatchObject({
      place_id: 'sk_msk0315510734', object: 'municipality', country: 'SK',
      county_id: 'sk_csk0315', county: 'Liptovský Mikuláš', region_id: 'sk_rsk031', region: 'Žilinský',
      municipality_id: null, lat: null, lng: null,
    });
    expect(m.filter((x) => x.name === 'Sliač').map((x) => x.place_id)).toEqual(['sk_msk032b518808']);
    expect(m.some((x) => x.name === 'Radvaň' || x.name === 'Svätý Ján' || /^Nezn/.test(x.name))).toBe(false);
    expect(cat.errors).toEqual([]);
  });
});

describe('SkCatalogueBuilder', () => {
  const region = rec({ type: 'REGION', objectId: '2', versionId: 5, itemCode: 'SK010', itemName: 'Bratislavský' });
  const county = rec({ type: 'COUNTY', objectId: '12', versionId: 6, itemCode: 'SK0101', itemName: 'Bratislava I', parents: { regionIdentifier: '2' } });
  const muni = (objectId: string, versionId: number, itemName: string, extra: Partial<RegisterChange> = {}) =>
    rec({ type: 'MUNICIPALITY', objectId, versionId, itemCode: `C${objectId}`, itemName, parents: { countyIdentifier: '12' }, ...extra });

  function build(recs: RegisterChange[], asOf = new Date('2024-01-01T00:00:00Z')): Catalogue {
    const b = new SkCatalogueBuilder(asOf);
    recs.forEach((r) => b.apply(r));
    return b.build();
  }

  it('lets the highest versionId win whatever the order, and DELETE tombstones the object', () => {
    const recs = [region, county, muni('1', 10, 'Old'), muni('1', 20, 'New'), muni('2', 30, 'Gone'), muni('2', 31, 'Gone', { operation: 'DELETE' })];
    for (const order of [recs, [...recs].reverse()]) {
      expect(build(order).municipalities.map((m) => m.name)).toEqual(['New']);
    }
  });

  it('applies an UPDATE of the same version that closes it', () => {
    const closed = muni('1', 10, 'Radvaň', { operation: 'UPDATE', validTo: '1965-12-31T22:59:59+01:00' });
    expect(build([region, county, muni('1', 10, 'Radvaň'), closed]).municipalities).toEqual([]);
  });

  it('judges validTo against asOf', () => {
    const recs = [region, county, muni('1', 10, 'Until 2020', { validTo: '2020-12-31T23:59:59+01:00' })];
    expect(build(recs, new Date('2019-06-01')).municipalities.map((m) => m.name)).toEqual(['Until 2020']);
    expect(build(recs, new Date('2021-06-01')).municipalities).toEqual([]);
  });

  it('restores the diacritic the register drops from Trenčiansky, in the region and in what lies under it', () => {
    const trencin = rec({ type: 'REGION', objectId: '5', versionId: 3000003, itemCode: 'SK022', itemName: 'Trenciansky' });
    const cat = build([
      trencin,
      rec({ type: 'COUNTY', objectId: '29', versionId: 9, itemCode: 'SK0229', itemName: 'Trenčín', parents: { regionIdentifier: '5' } }),
      rec({ type: 'MUNICIPALITY', objectId: '7', versionId: 11, itemCode: 'SK0229505820', itemName: 'Trenčín', parents: { countyIdentifier: '29' } }),
    ]);
    expect(cat.regions.map((r) => [r.place_id, r.name])).toEqual([['sk_rsk022', 'Trenčiansky']]);
    expect(cat.counties.map((c) => c.region)).toEqual(['Trenčiansky']);
    expect(cat.municipalities.map((m) => [m.region_id, m.region])).toEqual([['sk_rsk022', 'Trenčiansky']]);
  });

  it('keeps a region name that is not a spelling of its official one as the register gives it', () => {
    expect(skRegionName('SK022', 'Trenčiansky kraj')).toBe('Trenčiansky kraj');
    expect(skRegionName('SK099', 'Trenciansky')).toBe('Trenciansky');
    expect(skRegionName('SK010', 'BRATISLAVSKY')).toBe('Bratislavský');
  });

  it('reports objects without a code, with a repeated code, or under a parent that is not current', () => {
    const cat = build([
      region,
      county,
      rec({ type: 'COUNTY', objectId: '91', versionId: 7, itemCode: 'X', itemName: 'Old', parents: { regionIdentifier: '99' } }),
      muni('1', 10, 'Čáčov', { itemCode: undefined }),
      muni('2', 11, 'First', { itemCode: 'SAME' }),
      muni('3', 12, 'Second', { itemCode: 'SAME' }),
      muni('4', 13, 'Orphan', { parents: { countyIdentifier: '91' } }),
      rec({ type: 'COUNTY', objectId: '13', versionId: 8, operation: 'MERGE' }),
      rec({ type: 'STREET_NAME', objectId: '5', versionId: 1 }),
    ]);
    expect(cat.municipalities.map((m) => m.name)).toEqual(['First']);
    expect(cat.errors).toEqual([
      'test: COUNTY 13 v8: unknown databaseOperation MERGE',
      'COUNTY objectId 91 "Old": its region (objectId 99) is not a current region: skipped',
      'MUNICIPALITY objectId 1 "Čáčov" has no codelist ItemCode or ItemName: skipped',
      'MUNICIPALITY objectId 3 "Second" repeats ItemCode SAME of objectId 2: skipped',
      'MUNICIPALITY objectId 4 "Orphan": its county (objectId 91) is not a current county: skipped',
    ]);
  });
  it('says so when a record without its code names a municipality the catalogue has from another record of its county', () => {
    const cat = build([region, county, muni('2', 11, 'First', { itemCode: 'F1' }), muni('1', 10, 'First', { itemCode: undefined }), muni('6', 12, 'Lost', { itemCode: undefined })]);
    expect(cat.municipalities.map((m) => m.name)).toEqual(['First']);
    expect(cat.errors).toEqual([
      'MUNICIPALITY objectId 1 "First" has no codelist ItemCode or ItemName: skipped; "First" is in the catalogue from objectId 2',
      'MUNICIPALITY objectId 6 "Lost" has no codelist ItemCode or ItemName: skipped',
    ]);
  });
});

describe('parseRegisterDate', () => {
  it('reads the register timestamp shapes', () => {
    expect(parseRegisterDate('2015-10-01T10:11:53+02:00')?.toISOString()).toBe('2015-10-01T08:11:53.000Z');
    expect(parseRegisterDate('1996-07-24+02:00')?.toISOString()).toBe('1996-07-23T22:00:00.000Z');
    expect(parseRegisterDate('1875-10-30T22:00:00+00:57')?.toISOString()).toBe('1875-10-30T21:03:00.000Z');
    expect(parseRegisterDate('3000-12-31T23:59:59.0')?.getUTCFullYear()).toBe(3000);
    expect(parseRegisterDate('2016-06-01')).not.toBeNull();
    expect(parseRegisterDate('soon')).toBeNull();
  });
});
