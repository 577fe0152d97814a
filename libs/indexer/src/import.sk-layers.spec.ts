import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { CATALOGUE_OBJECTS, createPlacesStore, PlaceDoc, placeId, PlacesStore } from '@lookup/places';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { isDatasetCommand, runDatasetImport } from './cli/dataset-import';
import { runImport } from './import.command';
import { readmeImportCommands, withFiles } from './testing/readme-commands';

const FIXTURES = resolve(__dirname, '../../places/src/fixtures');
const SK = join(FIXTURES, 'sk');

/** One CLI command in-process (standalone profile), as `npm run import -- ...` runs it. */
async function run(argv: string[], config: AppConfig): Promise<string[]> {
  const out: string[] = [];
  const store = createPlacesStore(config);
  // The catalogue command closes the store it is given.
  if (!isDatasetCommand(argv)) {
    await runImport(argv, config, (l) => out.push(l), store);
    return out;
  }
  try {
    await runDatasetImport(argv, config, { out: (l) => void out.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: store });
  } finally {
    await store.close();
  }
  return out;
}

/** The country's regions, counties and municipalities, by place_id. */
async function areas(config: AppConfig): Promise<Map<string, PlaceDoc>> {
  const store: PlacesStore = createPlacesStore(config);
  await store.init();
  try {
    const docs = (await Promise.all(CATALOGUE_OBJECTS.map((o) => store.list('SK', o)))).flat();
    return new Map(docs.sort((a, b) => (a.place_id < b.place_id ? -1 : 1)).map((d) => [d.place_id, d]));
  } finally {
    await store.close();
  }
}

const at = (d: PlaceDoc | undefined) => (d && d.lat !== null && d.lng !== null ? [d.lat, d.lng] : null);

const BRATISLAVA = 'sk_msk0101528595';
const ZILINA = 'sk_msk031b517402';
const CERIN = 'sk_msk0321508519';
const BANSKA_BYSTRICA = 'sk_msk0321508438';

/**
 * The README's SK commands (catalogue, addresses, address-changes) on the project's own Register
 * adries and GeoNames fixtures, in the README's order and with the address layer first: "the
 * commands work in any order" and "a catalogue import keeps the weights and centroids". The
 * register's entrances have positions of their own; its regions, counties and municipalities
 * have none, the catalogue gives them GeoNames's. The address layer must not take those away.
 */
describe('import CLI: the SK catalogue and address layers compose in any order', () => {
  const dir = tempDir('import-sk-layers-');
  const files: Record<string, string> = {
    'SK.txt': join(FIXTURES, 'geonames/SK.txt'),
    'zmenovadavka5156536.xml': join(SK, 'ZmenovaDavka-addresses.xml'),
    'davky.zip': join(dir.path, 'davky.zip'),
  };
  const commands = readmeImportCommands('SK');
  const [catalogue, addresses, changes] = commands;
  let catalogueOnly: Map<string, PlaceDoc>;

  beforeAll(async () => {
    // The initial batches as one zip, like the real davky.zip. Entrance 10003, the only one of
    // Bratislava-Staré Mesto, is given without its position (AxisB/AxisL), as the register has
    // entrances: a municipality whose addresses are all without a position.
    const init = readFileSync(join(SK, 'DavkaInit-addresses.xml'), 'utf8');
    const i = init.indexOf('<objectId>10003</objectId>');
    const unlocated = init.slice(0, i) + init.slice(i).replace(/<AddressPoint>[\s\S]*?<\/AddressPoint>/, '');
    expect(unlocated).not.toBe(init);
    writeTestZip(files['davky.zip']!, [
      { name: 'DavkaInit-catalogue.xml', data: readFileSync(join(SK, 'DavkaInit-catalogue.xml')), deflate: true },
      { name: 'DavkaInit-addresses.xml', data: unlocated, deflate: true },
    ]);
    const config = loadConfig({}, { DATA_DIR: join(dir.path, 'catalogue-only') });
    await run(withFiles(catalogue!, files), config);
    catalogueOnly = await areas(config);
  });
  afterAll(() => dir.remove());

  it('the README names the catalogue, the addresses, then the change batch; the catalogue alone positions all but Čerín', () => {
    expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses', 'address-changes']);
    const ms = [...catalogueOnly.values()].filter((d) => d.object === 'municipality');
    expect(ms).toHaveLength(12);
    expect(ms.filter((m) => !at(m)).map((m) => m.name)).toEqual(['Čerín']);
  });

  /** Runs the commands into a data dir of their own; after each one once a catalogue is live, no position it gave may be missing. */
  async function runSequence(name: string, sequence: string[][]): Promise<{ config: AppConfig; lines: string[][] }> {
    const config = loadConfig({}, { DATA_DIR: join(dir.path, name.replace(/\W+/g, '-')) });
    const lines: string[][] = [];
    let catalogueLive = false;
    for (const argv of sequence) {
      lines.push(await run(withFiles(argv, files), config));
      if (argv[0] === 'addresses' && !catalogueLive) expect(lines.at(-1)).toContainEqual(expect.stringMatching(/^ {2}note: no SK catalogue is live: .*npm run import -- catalogue SK/));
      catalogueLive ||= argv[0] === 'catalogue';
      if (!catalogueLive) continue;
      const now = await areas(config);
      expect([...now.keys()]).toEqual([...catalogueOnly.keys()]);
      const lost = [...catalogueOnly.values()].filter((d) => at(d) && !at(now.get(d.place_id))).map((d) => `${d.object} ${d.name}`);
      expect({ after: argv.slice(0, 2).join(' '), lost }).toEqual({ after: argv.slice(0, 2).join(' '), lost: [] });
    }
    return { config, lines };
  }

  /** What the README promises of the layers: the catalogue's positions where no address has one, the addresses' weight and centroid. */
  function expectComposed(final: Map<string, PlaceDoc>, zilina: { weight: number; lat: number; lng: number }): void {
    // No addresses: the catalogue's document as it is.
    expect(final.get(BANSKA_BYSTRICA)).toEqual(catalogueOnly.get(BANSKA_BYSTRICA));
    // One address, without a position: its weight, the catalogue's position.
    expect(final.get(BRATISLAVA)).toMatchObject({ weight: 1, lat: catalogueOnly.get(BRATISLAVA)!.lat, lng: catalogueOnly.get(BRATISLAVA)!.lng });
    // No catalogue position: its address's.
    expect(final.get(CERIN)).toMatchObject({ weight: 1, lat: 48.764, lng: 19.21 });
    // The centroid of its located addresses.
    expect(final.get(ZILINA)).toMatchObject(zilina);
    expect([...final.values()].filter((d) => !at(d)).map((d) => `${d.object} ${d.name}`)).toEqual([]);
  }

  const sequences: Record<string, () => string[][]> = {
    'README order, then the catalogue again': () => [catalogue!, addresses!, catalogue!],
    'addresses first': () => [addresses!, catalogue!],
    'addresses first, then the addresses again': () => [addresses!, catalogue!, addresses!],
  };
  const finals = new Map<string, Map<string, PlaceDoc>>();

  for (const [name, sequence] of Object.entries(sequences)) {
    it(`${name}: no municipality, county or region loses the catalogue's position; located addresses give centroids`, async () => {
      const { config } = await runSequence(name, sequence());
      const final = await areas(config);
      finals.set(name, final);
      // 10001, 10002 and 10005 located, 10007 without a position.
      expectComposed(final, { weight: 4, lat: 49.2234333, lng: 18.7396667 });
    }, 60000);
  }

  it('every order ends with the same regions, counties and municipalities', () => {
    const [first, ...rest] = [...finals.values()].map((m) => [...m.values()]);
    expect(rest).toHaveLength(Object.keys(sequences).length - 1);
    for (const r of rest) expect(r).toEqual(first);
  });

  it('the change batch after the README order keeps the catalogue positions too, and applied twice changes nothing', async () => {
    const { config, lines } = await runSequence('README order with the change batch', [catalogue!, addresses!, changes!, changes!]);
    expect(lines[3]).toContainEqual(expect.stringMatching(/^SK address-changes \(sk-register-xml\): \d+ records \(0 new\), 0 documents upserted, 0 deleted/));
    // 10005 deleted, 10002 moved, 10010 new: 10001, 10002 and 10010 located, 10007 without a position.
    expectComposed(await areas(config), { weight: 4, lat: 49.2233333, lng: 18.7396667 });
    // The first change batch is compared with what the address import wrote: the entrance it
    // deletes leaves the store (it stayed, searchable, while the change state started empty).
    const store = createPlacesStore(config);
    await store.init();
    try {
      expect(await store.get(placeId('SK', 'address', '10005'))).toBeNull();
      expect(await store.get(placeId('SK', 'address', '10010'))).not.toBeNull();
    } finally {
      await store.close();
    }
  }, 60000);
});
