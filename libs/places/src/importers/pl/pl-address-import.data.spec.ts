import { resolve } from 'node:path';
import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { loadGeonamesCatalogue } from '../geonames/geonames-catalogue';
import { plPlaceDocs } from './pl-address-import';

const GEONAMES_PL = sharedData('geonames', 'PL.txt');
const PL = resolve(__dirname, '../../fixtures/pl');

/**
 * The PRG fixtures (real TERYT codes for Gdańsk, Gromadka, Warszawa, Piaseczno) with the
 * catalogue built from the real GeoNames PL file: the TERYT ids the importer derives are the
 * catalogue's, and the names and parents are taken from it.
 */
describeWithData([GEONAMES_PL], 'plPlaceDocs with the GeoNames PL catalogue', () => {
  let docs: PlaceDoc[];
  let report: AddressImportReport;
  let byId: Map<string, PlaceDoc>;

  beforeAll(async () => {
    const catalogue = await loadGeonamesCatalogue('PL', GEONAMES_PL);
    byId = new Map([...catalogue.regions, ...catalogue.counties, ...catalogue.municipalities].map((d) => [d.place_id, d]));
    docs = [];
    const sources = ['PRG_PunktyAdresowe-2012-22.xml', 'PRG-punkty_adresowe-2021-14.gml'].map((f) => resolve(PL, f));
    for await (const b of plPlaceDocs({ sources, catalogue, onReport: (r) => (report = r) })) docs.push(...b);
  });

  it('names the catalogue in Polish: no identifier or English names, the capital is Warszawa', () => {
    const all = [...byId.values()];
    expect(all.filter((d) => d.name.includes('_')).map((d) => `${d.place_id} ${d.name}`)).toEqual([]);
    // GeoNames writes 36 powiats in English (`Głogów County`, `Warsaw West County`): named as TERYT does.
    expect(all.filter((d) => /County|Warsaw/.test(d.name)).map((d) => `${d.place_id} ${d.name}`)).toEqual([]);
    expect(byId.get('pl_m146501')).toMatchObject({ name: 'Warszawa', county: 'Warszawa', region: 'mazowieckie' });
    expect(byId.get('pl_c1465')!.name).toBe('Warszawa');
    expect(byId.get('pl_c3013')!.name).toBe('powiat leszczyński');
    expect(byId.get('pl_c1432')!.name).toBe('powiat warszawski zachodni');
    // Powiats are `powiat` + a lowercase adjective, or a city with powiat rights (x61 and up).
    for (const c of all.filter((d) => d.object === 'county')) {
      if (Number(c.place_id.slice(-2)) >= 61) expect(c.name).toMatch(/^\p{Lu}/u);
      else expect(c.name).toMatch(/^powiat [\p{Ll}-]+( \p{Ll}+)?$/u);
    }
  });

  it('finds every gmina, powiat and voivodeship of the fixtures in the catalogue', () => {
    expect(report.errors.filter((e) => /not in the catalogue|no name/.test(e))).toEqual([]);
    for (const id of ['pl_m226101', 'pl_m020103', 'pl_m146501', 'pl_m141804', 'pl_c0201', 'pl_c2261', 'pl_c1418', 'pl_c1465', 'pl_r02', 'pl_r22', 'pl_r14']) {
      expect(byId.has(id)).toBe(true);
    }
  });

  it('names addresses and derived areas as the catalogue does, with its parents', () => {
    for (const d of docs.filter((x) => x.object === 'address')) {
      const m = byId.get(d.municipality_id!)!;
      expect(d.municipality).toBe(m.name);
      expect(d.county_id).toBe(m.county_id);
      expect(d.county).toBe(byId.get(d.county_id!)!.name);
      expect(d.region).toBe(byId.get(d.region_id!)!.name);
    }
    const piaseczno = docs.find((d) => d.place_id === 'pl_m141804')!;
    expect(piaseczno).toMatchObject({ object: 'municipality', name: byId.get('pl_m141804')!.name, weight: 2 });
  });
});
