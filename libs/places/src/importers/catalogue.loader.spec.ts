import { resolve } from 'node:path';
import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../domain/place.doc';
import { loadCatalogue, LoadedCatalogue } from './catalogue.loader';
import { ADDRESSES_PER_POSTAL_CODE } from './catalogue.types';

const FIXTURES = resolve(__dirname, '../fixtures');

function expectConsistent(docs: PlaceDoc[]): void {
  const ids = new Set(docs.map((d) => d.place_id));
  expect(ids.size).toBe(docs.length);
  for (const d of docs) {
    if (d.object !== 'region') expect(ids.has(d.region_id!)).toBe(true);
    if (d.object === 'municipality') expect(ids.has(d.county_id!)).toBe(true);
  }
}

describe('loadCatalogue on the fixtures', () => {
  it('loads SK with coordinates and a report', async () => {
    const { docs, report } = await loadCatalogue({
      country: 'SK',
      sources: { register: resolve(FIXTURES, 'sk/DavkaInit-catalogue.xml'), geonames: resolve(FIXTURES, 'geonames/SK.txt') },
    });
    expect(report).toMatchObject({ regions: 3, counties: 6, municipalities: 12, withoutCoordinates: 1, errors: [] });
    expect(docs.map((d) => d.object).slice(0, 4)).toEqual(['region', 'region', 'region', 'county']);
    expect(docs).toHaveLength(21);
    expectConsistent(docs);
  });

  it('reads a folder of batches the same way', async () => {
    const { report } = await loadCatalogue({ country: 'SK', sources: { register: resolve(FIXTURES, 'sk') } });
    expect(report).toMatchObject({ regions: 3, counties: 6, municipalities: 12, withoutCoordinates: 12, coordinates: null });
  });

  it('loads CZ with coordinates and postal codes', async () => {
    const { docs, report, catalogue } = await loadCatalogue({
      country: 'CZ',
      sources: { pscList: resolve(FIXTURES, 'cz/psc-list.csv'), geonames: resolve(FIXTURES, 'geonames/CZ.txt') },
    });
    expect(report).toMatchObject({ regions: 3, counties: 3, municipalities: 7, withoutCoordinates: 0, errors: [] });
    expect(docs.every((d) => d.lat !== null && d.lng !== null)).toBe(true);
    expect(catalogue.postalCodes.get('cz_m554782')).toEqual(new Set(['11000', '18600', '12000']));
    expectConsistent(docs);
  });

  it('weighs each municipality by its postal codes until its addresses are counted (Praha 3 in the fixture, Bludov 1)', async () => {
    const { docs } = await loadCatalogue({ country: 'CZ', sources: { pscList: resolve(FIXTURES, 'cz/psc-list.csv') } });
    const weight = (name: string) => docs.find((d) => d.object === 'municipality' && d.name === name)?.weight;
    expect([weight('Praha'), weight('Zlín'), weight('Bludov')]).toEqual([3, 3, 1].map((n) => n * ADDRESSES_PER_POSTAL_CODE));
    // SK by the codes of the GeoNames rows that placed it (the register has none).
    const sk = await loadCatalogue({ country: 'SK', sources: { register: resolve(FIXTURES, 'sk/DavkaInit-catalogue.xml'), geonames: resolve(FIXTURES, 'geonames/SK.txt') } });
    const placed = sk.docs.filter((d) => d.object === 'municipality' && d.lat !== null);
    expect(placed.length).toBeGreaterThan(0);
    for (const m of placed) expect(m.weight).toBe(sk.catalogue.postalCodes.get(m.place_id)!.size * ADDRESSES_PER_POSTAL_CODE);
    // GeoNames' catalogues (PL, AT, CH, LI) alike.
    const li = await loadCatalogue({ country: 'LI', sources: { geonames: resolve(FIXTURES, 'geonames/LI.txt') } });
    for (const m of li.docs.filter((d) => d.object === 'municipality')) expect(m.weight).toBe(li.catalogue.postalCodes.get(m.place_id)!.size * ADDRESSES_PER_POSTAL_CODE);
  });
});

function summary(label: string, r: LoadedCatalogue, ms: number): void {
  const { errors, ...counts } = r.report;
  const missing = r.docs.filter((d) => d.object === 'municipality' && d.lat === null).map((d) => `${d.name} (${d.county})`);
  
  console.log(`${label} in ${ms} ms: ${JSON.stringify(counts)}\n${errors.length} errors: ${errors.join('; ')}\nwithout coordinates: ${missing.join('; ')}`);
}

describeWithData([sharedData('sk/davky.zip'), sharedData('geonames/SK.txt')], 'loadCatalogue on the real SK register', () => {
  it('builds 8 regions, 79 counties and 2 900+ municipalities, nearly all placed', async () => {
    const started = Date.now();
    const r = await loadCatalogue({ country: 'SK', sources: { register: sharedData('sk/davky.zip'), geonames: sharedData('geonames/SK.txt') } });
    const ms = Date.now() - started;
    summary('SK', r, ms);
    expect(r.report).toMatchObject({ regions: 8, counties: 79 });
    expect(r.report.municipalities).toBeGreaterThanOrEqual(2900);
    expectConsistent(r.docs);
    expect(r.docs.find((d) => d.place_id === 'sk_rsk010')?.name).toBe('Bratislavský');
    expect(r.docs.find((d) => d.place_id === 'sk_msk0321508438')).toMatchObject({
      name: 'Banská Bystrica', county: 'Banská Bystrica', region: 'Banskobystrický',
    });
    // 11 historic municipalities lack a codelist item in the 2015 batch; nothing else may fail.
    expect(r.report.errors.length).toBeLessThanOrEqual(11);
    expect(r.report.withoutCoordinates / r.report.municipalities).toBeLessThan(0.01);
    expect(r.docs.filter((d) => d.object !== 'municipality' && d.lat === null)).toEqual([]);
    expect(ms).toBeLessThan(30_000);
  });
});

describeWithData([sharedData('cz/psc-list.csv'), sharedData('geonames/CZ.txt')], 'loadCatalogue on the real CZ PSC list', () => {
  it('builds 14 regions, 77 counties and 6 000+ municipalities, nearly all placed', async () => {
    const started = Date.now();
    const r = await loadCatalogue({ country: 'CZ', sources: { pscList: sharedData('cz/psc-list.csv'), geonames: sharedData('geonames/CZ.txt') } });
    const ms = Date.now() - started;
    summary('CZ', r, ms);
    expect(r.report).toMatchObject({ regions: 14, counties: 77, errors: [] });
    expect(r.report.municipalities).toBeGreaterThanOrEqual(6000);
    expectConsistent(r.docs);
    expect(r.docs.find((d) => d.place_id === 'cz_m500011')).toMatchObject({ name: 'Želechovice nad Dřevnicí', county: 'Zlín', region: 'Zlínský' });
    expect(r.report.withoutCoordinates / r.report.municipalities).toBeLessThan(0.01);
    expect(r.docs.filter((d) => d.object !== 'municipality' && d.lat === null)).toEqual([]);
    expect(ms).toBeLessThan(30_000);
  });
});
