import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { CountryCode, parseRequest, PlaceObjects, PlaceQueryRequest } from '@lookup/contracts';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { CatalogueService, CATALOGUE_OBJECTS, createPlacesStore, datasetStatusPath, PlacesDataBootstrap, PlacesSearchService, PlacesStore, readStatusFile } from '@lookup/places';
import { describeWithData, SHARED_DATA_DIR, tempDir } from '@lookup/shared/testing';
import { runDatasetImport } from './cli/dataset-import';
import { statusLines } from './cli/dataset-status';
import { runImport } from './import.command';

const FIXTURES = resolve(__dirname, '../../places/src/fixtures');

const standalone = (dir: string): AppConfig => loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir, LOG_LEVEL: 'error' });

/** What `npm start` does to an empty data directory: the app's own bootstrap of the bundled sample. */
async function firstStart(config: AppConfig): Promise<void> {
  Logger.overrideLogger(false);
  const store = createPlacesStore(config);
  await store.init();
  try {
    await new PlacesDataBootstrap(store, config).onApplicationBootstrap();
  } finally {
    await store.close();
  }
}

async function withStore<T>(config: AppConfig, fn: (store: PlacesStore) => Promise<T>): Promise<T> {
  const store = createPlacesStore(config);
  await store.init();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The places a country search for `query` finds. */
const search = (config: AppConfig, country: CountryCode, query: string) =>
  withStore(config, async (store) => (await new PlacesSearchService(store).query(parseRequest(PlaceQueryRequest, { query, country }))).map((p) => `${p.object} ${p.formatted_address}`));

/** A country's documents: how many of each kind, and the ids of its regions, counties and municipalities. */
const countryDocs = (config: AppConfig, country: CountryCode) =>
  withStore(config, async (store) => ({
    counts: Object.fromEntries(await Promise.all(PlaceObjects.map(async (o) => [o, await store.count(country, o)] as const))) as Record<string, number>,
    areas: (await Promise.all(CATALOGUE_OBJECTS.map((o) => store.list(country, o)))).flat().map((d) => d.place_id).sort(),
  }));

const regionNames = (config: AppConfig, country: CountryCode) => withStore(config, async (s) => (await new CatalogueService(s).regions(country)).map((r) => r.name));

const statusOf = (config: AppConfig) => readStatusFile(datasetStatusPath(config));

/** The sample's layers on record, `CC kind`. */
const sampleLayers = (config: AppConfig) =>
  Object.entries(statusOf(config))
    .flatMap(([cc, kinds]) => Object.entries(kinds).filter(([, d]) => d.sample).map(([kind]) => `${cc} ${kind}`))
    .sort();

const ALL_SAMPLE_LAYERS = ['AT', 'CH', 'CZ', 'LI', 'PL', 'SK'].flatMap((cc) => [`${cc} addresses`, `${cc} catalogue`]);

/**
 * The user's first-start path: `npm start` imports the bundled sample (invented addresses), then an
 * official import of one layer of a country replaces that country's sample whole, the other
 * layer included, in the same new version; the other countries' sample stays, and `import status`
 * says which layers are still the sample's.
 */
describe('import CLI: an official import replaces the bundled sample of its country', () => {
  const dir = tempDir('import-bundled-sample-');
  const bare = tempDir('import-bundled-sample-bare-');
  const config = standalone(join(dir.path, 'data'));
  // A GeoNames-format file of our own: the Lower Silesia rows of the GeoNames fixture (the sample's PL catalogue has three regions).
  const plGeonames = join(dir.path, 'PL-lower-silesia.txt');
  const out = (argv: string[], lines: string[]) => runImport(argv, config, (l) => lines.push(l));

  beforeAll(async () => {
    writeFileSync(plGeonames, readFileSync(join(FIXTURES, 'geonames/PL.txt'), 'utf8').split('\n').filter((l) => l.split('\t')[3] === 'Lower Silesia').join('\n') + '\n');
    await firstStart(config);
  }, 120_000);

  afterAll(() => {
    dir.remove();
    bare.remove();
  });

  it('puts every layer of the sample on record, marked as the bundled sample', async () => {
    expect(sampleLayers(config)).toEqual(ALL_SAMPLE_LAYERS);
    const pl = statusOf(config)['PL']!;
    expect(pl['addresses']).toMatchObject({ format: 'pl-prg-gml', source: 'bundled sample (invented rows)', version: 'sample', sample: true });
    expect(pl['catalogue']).toMatchObject({ format: 'catalogue', source: 'bundled sample (invented rows)', sample: true });
    // docs: the country's documents, as an import's status has them.
    const plDocs = Object.values((await countryDocs(config, 'PL')).counts).reduce((a, b) => a + b, 0);
    expect(pl['addresses']!.docs).toBe(plDocs);
    expect(pl['catalogue']!.docs).toBe(plDocs);
    const lines = statusLines(statusOf(config));
    expect(lines).toContainEqual(expect.stringMatching(/^PL addresses +live since .* pl-prg-gml +version sample +\d+ documents +from bundled sample \(invented rows\)$/));
    expect(lines).toContainEqual(expect.stringContaining('not official data: npx lookup import addresses PL <PRG file> replaces the whole PL sample'));
    // The sample's invented PL address is found before the import.
    expect((await search(config, 'PL', 'Jana Pawła II')).some((p) => p.startsWith('address '))).toBe(true);
  });

  it('catalogue PL: the sample\'s PL addresses go with its catalogue, in the same version; the other countries keep theirs', async () => {
    const before = { at: await search(config, 'AT', 'Stephansplatz'), ch: await search(config, 'CH', 'Via Nassa'), cz: await search(config, 'CZ', 'Jesenická 183') };
    expect(before.at.length && before.ch.length && before.cz.length).toBeGreaterThan(0);
    expect(await regionNames(config, 'PL')).toHaveLength(3);
    const lines: string[] = [];
    const report = await out(['catalogue', 'PL', '--geonames', plGeonames], lines);
    expect(lines).toContain("  note: removed the bundled sample's PL addresses (invented rows); real ones: npx lookup import addresses PL <PRG file>");
    // What it replaced is named as status named it (was "previous: legacy with N").
    expect(lines).toContainEqual(expect.stringMatching(/^PL: version \d+ live: \d+ documents \(previous: bundled sample with \d+\)$/));

    expect(await search(config, 'PL', 'Jana Pawła II')).toEqual([]);
    const pl = await countryDocs(config, 'PL');
    expect(pl.counts).toMatchObject({ address: 0, street: 0 });
    // Nothing of the sample is left: the country is exactly what the same import makes of an empty store.
    const bareConfig = standalone(bare.path);
    await runImport(['catalogue', 'PL', '--geonames', plGeonames], bareConfig, () => undefined);
    expect(pl).toEqual(await countryDocs(bareConfig, 'PL'));
    // The fixture's one region (Lower Silesia, under the catalogue's name for it).
    const regions = await regionNames(config, 'PL');
    expect(regions).toHaveLength(1);
    expect(regions).toEqual(await regionNames(bareConfig, 'PL'));
    expect(report.docs).toBe(Object.values(pl.counts).reduce((a, b) => a + b, 0));

    expect(await search(config, 'AT', 'Stephansplatz')).toEqual(before.at);
    expect(await search(config, 'CH', 'Via Nassa')).toEqual(before.ch);
    expect(await search(config, 'CZ', 'Jesenická 183')).toEqual(before.cz);

    expect(sampleLayers(config)).toEqual(ALL_SAMPLE_LAYERS.filter((l) => !l.startsWith('PL ')));
    expect(statusOf(config)['PL']).toEqual({ catalogue: expect.objectContaining({ format: 'catalogue', source: plGeonames, version: report.version, docs: report.docs }) });
    const status = statusLines(statusOf(config));
    expect(status.filter((l) => l.startsWith('PL '))).toEqual([expect.stringMatching(/^PL catalogue +live since .* from .*PL-lower-silesia\.txt$/)]);
    expect(status.join('\n')).not.toContain('the whole PL sample');
    expect(status).toContainEqual(expect.stringMatching(/^AT addresses +.* from bundled sample \(invented rows\)$/));
  }, 60_000);

  it('addresses AT: the sample\'s AT catalogue and postal codes go with its addresses', async () => {
    const lines: string[] = [];
    const store = createPlacesStore(config);
    try {
      await runDatasetImport(['addresses', 'AT', join(FIXTURES, 'at/stichtag')], config, { out: (l) => void lines.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: store });
    } finally {
      await store.close();
    }
    expect(lines).toContain("  note: removed the bundled sample's AT catalogue (invented rows); real one: npx lookup import catalogue AT --geonames AT.txt");
    const bareConfig = standalone(join(bare.path, 'at'));
    const bareStore = createPlacesStore(bareConfig);
    try {
      await runDatasetImport(['addresses', 'AT', join(FIXTURES, 'at/stichtag')], bareConfig, { out: () => undefined, progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: bareStore });
    } finally {
      await bareStore.close();
    }
    expect(await countryDocs(config, 'AT')).toEqual(await countryDocs(bareConfig, 'AT'));
    expect(sampleLayers(config)).toEqual(ALL_SAMPLE_LAYERS.filter((l) => !l.startsWith('PL ') && !l.startsWith('AT ')));
    expect(Object.keys(statusOf(config)['AT']!)).toEqual(['addresses']);
    expect(statusOf(config)['AT']!['addresses']).toMatchObject({ format: 'at-bev-csv', source: join(FIXTURES, 'at/stichtag') });
    // CH's sample is still there, both layers.
    expect((await search(config, 'CH', 'Via Nassa')).length).toBeGreaterThan(0);
  }, 60_000);
});

/** An official layer imported before the first start: the sample stays out of that country, whole. */
describe('first start after an official import: no sample in that country', () => {
  const dir = tempDir('import-bundled-sample-first-');
  afterAll(() => dir.remove());

  it('a PL catalogue gets no invented addresses, AT addresses get no sample catalogue; the other countries get the sample', async () => {
    const config = standalone(dir.path);
    await runImport(['catalogue', 'PL', '--geonames', join(FIXTURES, 'geonames/PL.txt')], config, () => undefined);
    const store = createPlacesStore(config);
    try {
      await runDatasetImport(['addresses', 'AT', join(FIXTURES, 'at/stichtag')], config, { out: () => undefined, progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: store });
    } finally {
      await store.close();
    }
    const before = { pl: await countryDocs(config, 'PL'), at: await countryDocs(config, 'AT') };
    await firstStart(config);
    expect(await countryDocs(config, 'PL')).toEqual(before.pl);
    expect(before.pl.counts['address']).toBe(0);
    expect(await countryDocs(config, 'AT')).toEqual(before.at);
    expect(sampleLayers(config)).toEqual(ALL_SAMPLE_LAYERS.filter((l) => !l.startsWith('PL ') && !l.startsWith('AT ')));
    expect(Object.keys(statusOf(config)['PL']!)).toEqual(['catalogue']);
    expect(Object.keys(statusOf(config)['AT']!)).toEqual(['addresses']);
    expect((await search(config, 'CH', 'Via Nassa')).length).toBeGreaterThan(0);
  }, 60_000);
});

const REAL_PL = join(SHARED_DATA_DIR, 'geonames/PL.txt');

/** The README walkthrough with the real GeoNames PL file: `npm start`, then `npx lookup import catalogue PL --geonames PL.txt`. */
describeWithData([REAL_PL], 'import CLI: the real GeoNames PL catalogue replaces the PL sample', () => {
  const dir = tempDir('import-bundled-sample-real-');
  const config = standalone(dir.path);
  afterAll(() => dir.remove());

  it('leaves no invented PL address and lists the other countries\' sample', async () => {
    await firstStart(config);
    const lines: string[] = [];
    await runImport(['catalogue', 'PL', '--geonames', REAL_PL], config, (l) => lines.push(l));
    expect(lines).toContain("  note: removed the bundled sample's PL addresses (invented rows); real ones: npx lookup import addresses PL <PRG file>");
    expect(lines[0]).toMatch(/^PL: 16 regions, /);
    const pl = await countryDocs(config, 'PL');
    expect(pl.counts).toMatchObject({ address: 0, street: 0 });
    expect((await search(config, 'PL', 'Jana Pawła II')).filter((p) => p.startsWith('address ') || p.startsWith('street '))).toEqual([]);
    expect((await search(config, 'AT', 'Stephansplatz')).some((p) => p.startsWith('address '))).toBe(true);
    expect(sampleLayers(config)).toEqual(ALL_SAMPLE_LAYERS.filter((l) => !l.startsWith('PL ')));
  }, 300_000);
});
