import { join } from 'node:path';
import { CountryCode } from '@lookup/contracts';
import {
  atPlaceDocs, chPlaceDocs, liPlaceDocs, loadGeonamesCatalogue, PlaceDoc, PlacesSearchService, plPlaceDocs, SqlitePlacesStore,
} from '@lookup/places';
import { projectRoot } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { DatasetRunner } from './dataset-runner';

const FIXTURES = join(projectRoot(), 'libs/places/src/fixtures');
const GEONAMES = join(FIXTURES, 'geonames');

const REGISTERS = [
  { country: 'PL', format: 'pl-prg-gml', path: join(FIXTURES, 'pl'), importer: plPlaceDocs },
  { country: 'AT', format: 'at-bev-csv', path: join(FIXTURES, 'at/stichtag'), importer: atPlaceDocs },
  { country: 'CH', format: 'ch-swisstopo-csv', path: join(FIXTURES, 'ch/amtliches-gebaeudeadressverzeichnis_ch_2056.csv'), importer: chPlaceDocs },
  { country: 'LI', format: 'li-osm-pbf', path: join(FIXTURES, 'li-sample/liechtenstein-sample.pbf'), importer: liPlaceDocs },
] as const;

/**
 * The PL, AT, CH and LI registers go through the same pipeline as RUIAN: one store collects all
 * four in turn, so each new version must carry the other countries and still count exactly its own
 * documents, named from the GeoNames catalogue in GEONAMES_DIR.
 */
describe('dataset runner: the PL, AT, CH and LI registers into one SQLite store', () => {
  const dir = tempDir('pipeline-countries-');
  let store: SqlitePlacesStore;
  let runner: DatasetRunner;
  const expected = new Map<CountryCode, { docs: PlaceDoc[]; addresses: number }>();

  beforeAll(async () => {
    store = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    await store.init();
    runner = new DatasetRunner({ places: store, config: { GEONAMES_DIR: GEONAMES } });
    for (const r of REGISTERS) {
      const catalogue = await loadGeonamesCatalogue(r.country, join(GEONAMES, `${r.country}.txt`));
      const docs: PlaceDoc[] = [];
      let addresses = -1;
      for await (const b of r.importer({ sources: [r.path], catalogue, onReport: (rep) => (addresses = rep.addresses) })) docs.push(...b);
      expected.set(r.country, { docs, addresses });
    }
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it.each(REGISTERS.map((r) => [r.country, r] as const))('%s: a new version with exactly the importer\'s documents, the other countries kept', async (country, r) => {
    const before = new Map<CountryCode, number>();
    for (const other of REGISTERS) before.set(other.country, await store.count(other.country, 'address'));
    const event = Object.assign(new DatasetUpdatedEvent(), { country, kind: 'addresses', format: r.format, location: r.path, publishedAt: '2026-11-01T00:00:00Z' });
    const report = await runner.run(event);
    const want = expected.get(country)!;
    expect(report).toMatchObject({ country, format: r.format, previous: null });
    expect(report.docs).toBe(new Set(want.docs.map((d) => d.place_id)).size);
    expect(await store.count(country, 'address')).toBe(want.addresses);
    for (const other of REGISTERS) if (other.country !== country) expect(await store.count(other.country, 'address')).toBe(before.get(other.country));
    // The stored documents are the importer's, region and county names from the catalogue included.
    const address = want.docs.find((d) => d.object === 'address' && d.region)!;
    expect(await store.get(address.place_id)).toMatchObject({ name: address.name, region: address.region, county: address.county, municipality: address.municipality });
    const found = await new PlacesSearchService(store).query({ query: address.name, country: [country], limit: 20 } as never);
    expect(found.map((p) => p.place_id)).toContain(address.place_id);
  });
});
