import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { CountryCode, MunicipalityQueryRequest, parseRequest, PostalQueryRequest } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../domain/place.doc';
import { loadCatalogue } from '../importers/catalogue.loader';
import { readOsmPbf, OsmNode } from '../importers/li/osm-pbf/osm-pbf.reader';
import { PlacesSearchService } from '../search/places-search.service';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { sampleSources } from './catalogue.import';
import { CatalogueService } from './catalogue.service';
import { PlacesDataBootstrap, sampleRegisterDocs, sampleRegisters } from './places-data.bootstrap';

type AreaIds = Record<'region' | 'county' | 'municipality', string[]>;

const idsOf = (docs: PlaceDoc[], kind: string) => docs.filter((d) => d.object === kind).map((d) => d.place_id);
const uniqueSorted = (ids: string[]) => [...new Set(ids)].sort();

/** What the store must list for a country: the catalogue loader's areas plus those the register sample derives. */
async function expectedAreas(cc: 'PL' | 'AT' | 'CH' | 'LI'): Promise<AreaIds> {
  const { catalogue, docs: catalogueDocs } = await loadCatalogue(sampleSources()[cc]);
  const { docs } = await sampleRegisterDocs(sampleRegisters().find((s) => s.country === cc)!, catalogue);
  const all = [...catalogueDocs, ...docs];
  return { region: uniqueSorted(idsOf(all, 'region')), county: uniqueSorted(idsOf(all, 'county')), municipality: uniqueSorted(idsOf(all, 'municipality')) };
}

/** A bare standalone start: the bundled sample gives catalogues and postal codes for all six countries, addresses for CZ, PL, AT, CH, LI. */
describe('standalone sample data bootstrap', () => {
  const dir = tempDir('places-bootstrap-');
  let store: SqlitePlacesStore;
  let catalogue: CatalogueService;
  let search: PlacesSearchService;
  const postal = (query: string, country: string) => search.postal(parseRequest(PostalQueryRequest, { query, country }));
  const config = () => loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, LOG_LEVEL: 'error' });
  const listed = async (cc: CountryCode): Promise<AreaIds> => ({
    region: (await catalogue.regions(cc)).map((r) => r.place_id).sort(),
    county: (await catalogue.counties(cc)).map((r) => r.place_id).sort(),
    municipality: (await catalogue.municipalities(cc)).map((r) => r.place_id).sort(),
  });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    store = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await store.init();
    await new PlacesDataBootstrap(store, config()).onApplicationBootstrap();
    catalogue = new CatalogueService(store);
    search = new PlacesSearchService(store);
  }, 120_000);

  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('leaves one full-text segment per index (the imports wrote many; every search would pay per segment)', async () => {
    // A table per kind (addresses, areas) and country; the sample has both kinds in every country.
    const segments = store.searchIndexSegments();
    expect(Object.keys(segments)).toHaveLength(12);
    expect(Object.values(segments).every((n) => n === 1)).toBe(true);
  });

  it('lists the catalogue and the register samples areas of every country', async () => {
    for (const cc of ['PL', 'AT', 'CH', 'LI'] as const) expect({ cc, ...(await listed(cc)) }).toEqual({ cc, ...(await expectedAreas(cc)) });
    expect((await catalogue.regions('CZ')).length).toBeGreaterThan(0);
    expect((await catalogue.regions('SK')).length).toBeGreaterThan(0);
    // GeoNames gives three voivodeships; the PRG sample (Gdańsk, Gromadka, Warszawa, Piaseczno) lies in them.
    expect((await catalogue.regions('PL')).map((r) => r.name)).toEqual(['dolnośląskie', 'mazowieckie', 'pomorskie']);
    // Leithaprodersdorf (GKZ 10306) is not in the GeoNames sample: its name comes from the BEV GEMEINDE table.
    expect((await catalogue.municipalities('AT')).map((m) => m.municipality)).toContain('Leithaprodersdorf');
  });

  it('imports every address of the SK, PL, AT, CH and LI register samples, the later record of a changed one, with no problem reported', async () => {
    for (const s of sampleRegisters()) {
      const { catalogue: c } = await loadCatalogue(sampleSources()[s.country]);
      const { report } = await sampleRegisterDocs(s, c);
      expect({ cc: s.country, addresses: await store.count(s.country, 'address') }).toEqual({ cc: s.country, addresses: report.addresses });
      expect(report.addresses).toBeGreaterThan(0);
      // The deliberately bad rows live in the importers' test fixtures, not in the sample: a first start prints no WARN.
      expect({ cc: s.country, errors: report.errors }).toEqual({ cc: s.country, errors: [] });
    }
    // Changed records: AT ADRCD 6100005 `5` -> `5a` (aenderung/); CH EGAID 190000005 is the sample's later version (`14`).
    expect(await store.get('at_a6100005')).toMatchObject({ building_number: '5a', street: 'Stephansplatz' });
    expect(await store.get('ch_a190000005')).toMatchObject({ building_number: '14', street: 'Via Nassa' });
    expect(await store.get('li_an1004')).toMatchObject({ street: 'Churer Strasse', district: 'Nendeln', municipality: 'Eschen', postal_code: '9485' });
    expect(await store.get('li_an1008')).toMatchObject({ street: 'Landstrasse', municipality: 'Triesen', postal_code: '9495' });
    expect(await store.get('sk_a70001')).toMatchObject({ street: 'Panská', municipality: 'Bratislava-Staré Mesto', county: 'Bratislava I', region: 'Bratislavský', postal_code: '81101' });
  });

  it('answers /postal and /municipality for PL, AT, CH, LI', async () => {
    expect(await postal('00950', 'PL')).toMatchObject([{ postal_code: '00-950', municipality: 'Warszawa', object: 'postal_code' }]);
    expect((await postal('1020', 'AT'))[0]).toMatchObject({ postal_code: '1020', municipality: 'Wien' });
    expect((await postal('8001', 'CH'))[0]).toMatchObject({ postal_code: '8001', municipality: 'Zürich' });
    expect((await postal('9485', 'LI'))[0]).toMatchObject({ postal_code: '9485', municipality: 'Eschen' });
    const gromadka = await search.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Gromadka', country: 'PL' }));
    expect(gromadka[0]).toMatchObject({ place_id: 'pl_m020103', municipality: 'Gromadka', county: 'powiat bolesławiecki', region: 'dolnośląskie' });
  });

  it('keeps the register postal codes and adds the GeoNames ones the registers lack', async () => {
    // 76001 and 76005 come from the RUIAN sample; GeoNames CZ.txt adds 763 02 etc. but no other 760.
    expect((await postal('760', 'CZ')).map((p) => p.postal_code).sort()).toEqual(['760 01', '760 05']);
    expect((await store.get('cz_p76001'))!.weight).not.toBe(2); // the register's address count, not GeoNames' two rows
    expect((await postal('11000', 'CZ'))[0]).toMatchObject({ postal_code: '110 00', municipality: 'Praha' });
    // CH 8001: three sample addresses (EGAID 190000001, 2, 8: the register's count), not GeoNames' one row; 8002 only in GeoNames.
    expect(await store.get('ch_p8001')).toMatchObject({ weight: 3, municipality: 'Zürich', county: 'Zürich' });
    expect(await store.get('ch_p8002')).toMatchObject({ object: 'postal_code', municipality: 'Zürich' });
    // LI 9497 only in the register sample (Malbun), 9492 only in GeoNames.
    expect(await store.get('li_p9497')).toMatchObject({ municipality: 'Triesenberg', region: 'Oberland' });
    expect(await store.get('li_p9492')).toMatchObject({ municipality: 'Eschen', region: 'Unterland' });
  });

  it('imports nothing again on the next start', async () => {
    const before = await Promise.all(['CZ', 'PL', 'AT', 'CH', 'LI'].map((cc) => store.count(cc as CountryCode, 'address')));
    await new PlacesDataBootstrap(store, config()).onApplicationBootstrap();
    expect(await Promise.all(['CZ', 'PL', 'AT', 'CH', 'LI'].map((cc) => store.count(cc as CountryCode, 'address')))).toEqual(before);
  });

  it('leaves out the invented addresses of a country whose catalogue comes from configured official files', async () => {
    const own = tempDir('places-bootstrap-configured-');
    const geonames = join(own.path, 'geonames');
    mkdirSync(geonames);
    copyFileSync(sampleSources().AT.sources.geonames!, join(geonames, 'AT.txt'));
    const other = new SqlitePlacesStore(join(own.path, 'places.sqlite'));
    await other.init();
    try {
      await new PlacesDataBootstrap(other, loadConfig({}, { PROFILE: 'standalone', DATA_DIR: own.path, LOG_LEVEL: 'error', GEONAMES_DIR: geonames })).onApplicationBootstrap();
      expect(await other.count('AT', 'region')).toBeGreaterThan(0);
      expect(await other.count('AT', 'address')).toBe(0);
      expect(await other.count('CH', 'address')).toBeGreaterThan(0);
    } finally {
      await other.close();
      own.remove();
    }
  }, 60_000);
});

describe('the bundled Liechtenstein sample extract', () => {
  it('holds exactly the invented nodes of liechtenstein-sample.json', async () => {
    const sample = sampleRegisters().find((s) => s.country === 'LI')!.sources[0]!;
    const json = JSON.parse(readFileSync(sample.replace(/\.pbf$/, '.json'), 'utf8')) as { nodes: { id: number; lat: number; lng: number; tags: Record<string, string> }[] };
    const nodes: OsmNode[] = [];
    for await (const block of readOsmPbf(sample)) nodes.push(...(block.filter((e) => e.type === 'node') as OsmNode[]));
    expect(nodes.map((n) => ({ id: n.id, lat: n.lat, lng: n.lng, tags: n.tags }))).toEqual(json.nodes);
  });
});
