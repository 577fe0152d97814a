import { join, resolve } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport, skRegisterPlaceDocs } from '../address-import';

const SK = resolve(__dirname, '../../fixtures/sk');
const CATALOGUE = join(SK, 'DavkaInit-catalogue.xml');
const INIT = join(SK, 'DavkaInit-addresses.xml');
const CHANGE = join(SK, 'ZmenovaDavka-addresses.xml');

async function importSk(sources: string[], batchSize?: number): Promise<{ docs: PlaceDoc[]; report: AddressImportReport; batches: number[] }> {
  let report: AddressImportReport | null = null;
  const batches: PlaceDoc[][] = [];
  for await (const b of skRegisterPlaceDocs({ sources, batchSize, onReport: (r) => (report = r) })) batches.push(b);
  return { docs: batches.flat(), report: report!, batches: batches.map((b) => b.length) };
}

const names = (docs: PlaceDoc[], object = 'address') => docs.filter((d) => d.object === object).map((d) => `${d.place_id} ${d.name}`);

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const d = docs.find((x) => x.place_id === id);
  if (!d) throw new Error(`no doc ${id}`);
  return d;
}

describe('skRegisterPlaceDocs: init batch', () => {
  let run: Awaited<ReturnType<typeof importSk>>;
  beforeAll(async () => {
    run = await importSk([CATALOGUE, INIT]);
  });

  it('turns current entrances into addresses, in the Slovak convention', () => {
    expect(names(run.docs)).toEqual([
      'sk_a10001 Hlavná 12/3, 010 01 Žilina',
      'sk_a10002 Hlavná 12/5, 010 01 Žilina',
      'sk_a10003 Panská 1450/7A, 811 01 Bratislava-Staré Mesto',
      'sk_a10004 Čerín 123, 974 01 Čerín',
      'sk_a10005 Hlavná 9, 010 01 Žilina',
      'sk_a10007 Hlavná 12/13, 010 01 Žilina',
    ]);
  });

  it('fills numbers, street, part of the municipality, county and region, position', () => {
    expect(byId(run.docs, 'sk_a10001')).toMatchObject({
      country: 'SK', street: 'Hlavná', street_id: 'sk_s8001', street_number: '12', number_kind: 'cp', building_number: '3', postal_code: '01001',
      district: 'Žilina', municipality: 'Žilina', municipality_id: 'sk_msk031b517402', county: 'Žilina', county_id: 'sk_csk031b', region: 'Žilinský', region_id: 'sk_rsk031',
      lat: 49.2231, lng: 18.7394,
    });
    expect(byId(run.docs, 'sk_a10004')).toMatchObject({ street: null, street_id: null, district: 'Čerín', street_number: '123', building_number: null });
    expect(byId(run.docs, 'sk_a10005')).toMatchObject({ street_number: null, number_kind: null, building_number: '9' });
  });

  it('reports entrances it cannot place, and a position outside Slovakia, without silently dropping them', () => {
    expect(run.report).toMatchObject({ country: 'SK', addresses: 6, skipped: 2 });
    expect(run.report.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/entrance objectId 10006: its building \(objectId 9999\) is not a current building/),
        expect.stringMatching(/entrance objectId 10008: its street \(objectId 8003\) is not a current street/),
        expect.stringMatching(/entrance objectId 10007: AxisB\/AxisL 52.225,18.741 is outside Slovakia: kept without a position/),
      ]),
    );
    expect(byId(run.docs, 'sk_a10007')).toMatchObject({ lat: null, lng: null });
  });

  it('derives streets, postal codes and municipalities with catalogue ids', () => {
    expect(byId(run.docs, 'sk_s8001')).toMatchObject({ object: 'street', name: 'Hlavná', weight: 4, municipality_id: 'sk_msk031b517402', postal_code: '01001' });
    expect(byId(run.docs, 'sk_p01001')).toMatchObject({ object: 'postal_code', name: '01001', weight: 4, municipality: 'Žilina' });
    const zilina = byId(run.docs, 'sk_msk031b517402');
    expect(zilina).toMatchObject({ object: 'municipality', name: 'Žilina', weight: 4, county_id: 'sk_csk031b' });
    // Mean of the three located Žilina entrances (10007 has no position).
    expect(zilina.lat).toBeCloseTo((49.2231 + 49.2232 + 49.224) / 3, 6);
    expect(run.report).toMatchObject({ streets: 2, postalCodes: 3, municipalities: 3 });
    expect(byId(run.docs, 'sk_csk031b')).toMatchObject({ object: 'county', name: 'Žilina', weight: 4, lat: zilina.lat });
    expect(byId(run.docs, 'sk_rsk031')).toMatchObject({ object: 'region', name: 'Žilinský', weight: 4 });
  });
});

describe('skRegisterPlaceDocs: joined to the live catalogue', () => {
  it("derives areas from the live catalogue's docs (names, positions) and leaves the ones no address derives to it", async () => {
    const alone = await importSk([CATALOGUE, INIT]);
    const areas = alone.docs.filter((d) => ['region', 'county', 'municipality'].includes(d.object));
    // The live catalogue: the register's areas with GeoNames positions, less one (Sliač) it lacks.
    const live = areas.filter((d) => d.name !== 'Sliač').map((d) => ({ ...d, weight: 0, lat: 48.5, lng: 19.5, name: d.object === 'municipality' ? `${d.name} (live)` : d.name }));
    const docs: PlaceDoc[] = [];
    for await (const b of skRegisterPlaceDocs({ sources: [CATALOGUE, INIT], liveCatalogue: live })) docs.push(...b);
    const written = docs.filter((d) => ['region', 'county', 'municipality'].includes(d.object));
    // Derived: Bratislava-Staré Mesto, Žilina, Čerín and their counties and regions; not derived and not live: Sliač.
    expect(written.filter((d) => d.object === 'municipality').map((d) => d.name).sort()).toEqual(['Bratislava-Staré Mesto (live)', 'Sliač', 'Čerín (live)', 'Žilina (live)']);
    expect(written).toHaveLength(4 + 3 + 3);
    expect(byId(docs, 'sk_msk031b517402')).toMatchObject({ weight: 4, lat: byId(alone.docs, 'sk_msk031b517402').lat });
    expect(byId(docs, 'sk_a10003')).toMatchObject({ municipality: 'Bratislava-Staré Mesto' });
    // The addresses and streets are the same either way.
    expect(docs.filter((d) => d.object === 'address' || d.object === 'street')).toEqual(alone.docs.filter((d) => d.object === 'address' || d.object === 'street'));
  });
});

describe('skRegisterPlaceDocs: change batches', () => {
  it('applies UPDATE, DELETE and new INSERTs of a later batch', async () => {
    const { docs } = await importSk([CATALOGUE, INIT, CHANGE]);
    expect(names(docs)).toEqual([
      'sk_a10001 Hlavná 12/3, 010 01 Žilina',
      'sk_a10002 Hlavná 12/5B, 010 01 Žilina',
      'sk_a10003 Nová Panská 1450/7A, 811 01 Bratislava-Staré Mesto',
      'sk_a10004 Čerín 123, 974 01 Čerín',
      'sk_a10007 Hlavná 12/13, 010 01 Žilina',
      'sk_a10010 Hlavná 12/11, 010 01 Žilina',
    ]);
    expect(byId(docs, 'sk_a10002')).toMatchObject({ lat: 49.2233, lng: 18.7397 });
    expect(names(docs, 'street')).toEqual(['sk_s8001 Hlavná', 'sk_s8002 Nová Panská']);
  });

  it('gives the same docs when a batch is applied twice or the batches come in another order', async () => {
    const once = await importSk([CATALOGUE, INIT, CHANGE]);
    const twice = await importSk([CATALOGUE, INIT, CHANGE, CHANGE, INIT]);
    const reversed = await importSk([CHANGE, INIT, CATALOGUE]);
    expect(twice.docs).toEqual(once.docs);
    expect(reversed.docs).toEqual(once.docs);
  });

  it('yields in batches of the asked size', async () => {
    const { batches, docs } = await importSk([CATALOGUE, INIT, CHANGE], 3);
    expect(batches.every((n) => n >= 1 && n <= 3)).toBe(true);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(docs.length);
  });
});
