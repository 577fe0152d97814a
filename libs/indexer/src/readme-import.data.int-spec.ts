import { existsSync } from 'node:fs';
import { AppConfig, loadConfig } from '@lookup/shared/config';
import { CatalogueService, createPlacesStore, PlacesSearchService, PlacesStore } from '@lookup/places';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, describeWithData, serverUrl, sharedData, tempDir, uniqueName } from '@lookup/shared/testing';
import { runDatasetImport, isDatasetCommand } from './cli/dataset-import';
import { runImport } from './import.command';
import { readmeImportCommands, ruianSubset, withFiles } from './testing/readme-commands';
import { expectRealSkAnswers } from './testing/sk-answers';

const ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const PSC = sharedData('cz/psc-list.csv');
const GEONAMES = sharedData('geonames/CZ.txt');

/** Municipalities of the real catalogue (distinct `kodobce`), Praha included. */
function catalogueMunicipalities(): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lines = (require('node:fs') as typeof import('node:fs')).readFileSync(PSC, 'utf8').trim().split('\n').slice(1);
  return new Set(lines.map((l) => l.split(',')[3])).size;
}

/** One CLI command in-process (standalone profile), into the given engine's store. */
async function run(argv: string[], config: AppConfig, store: PlacesStore): Promise<string[]> {
  const out: string[] = [];
  const deps = { out: (l: string) => void out.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: store };
  if (!isDatasetCommand(argv)) {
    // The catalogue command closes the store it is given.
    await runImport(argv, config, (l) => out.push(l), store);
    return out;
  }
  try {
    await runDatasetImport(argv, config, deps);
  } finally {
    await store.close();
  }
  return out;
}

/** Addresses of the country without a county or a region (what a user would see as holes). */
type Holes = (store: PlacesStore) => Promise<number>;

/**
 * The README's CZ import commands, literally and in the README's order (then reversed), on the
 * real catalogue, GeoNames file and a subset of the real RUIAN zip; then what a user sees.
 */
function readmeOrderSuite(engine: string, storeFor: (config: AppConfig) => PlacesStore, holes: Holes): void {
  const dir = tempDir();
  let files: Record<string, string>;
  let expectedAddresses = 0;
  const commands = readmeImportCommands('CZ').filter((a) => a[0] === 'catalogue' || a[0] === 'addresses');

  beforeAll(async () => {
    const subset = await ruianSubset(ZIP, dir.path, 150);
    files = { 'zv_cobce_psc.zip': PSC, 'CZ.txt': GEONAMES, '20231231_OB_ADR_csv.zip': subset.dir };
    expectedAddresses = subset.addresses;
  }, 120000);
  afterAll(() => dir.remove());

  it('the README names the catalogue, then the addresses', () => {
    expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses']);
  });

  for (const order of ['README order', 'reverse order'] as const) {
    it(`${engine}, ${order}: 14 regions, 77 counties, every municipality, every address with county and region, postal codes searchable`, async () => {
      const config = loadConfig({}, { DATA_DIR: `${dir.path}/${order.replace(' ', '-')}` });
      const seq = order === 'README order' ? commands : [...commands].reverse();
      const lines: string[] = [];
      for (const argv of seq) {
        const t0 = Date.now();
        lines.push(...(await run(withFiles(argv, files), config, storeFor(config))));
        lines.push(`(${argv[0]} took ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        process.stderr.write(`${engine} ${order}: ${lines.slice(-4).join(" / ")}\n`);
      }
      // Addresses alone: the user is told what is missing and which command fills it.
      if (seq[0]![0] === 'addresses') expect(lines.some((l) => l.startsWith('  note: no CZ catalogue is live') && l.includes('npm run import -- catalogue CZ'))).toBe(true);
      // Importing the first again disturbs nothing of the second.
      lines.push(...(await run(withFiles(seq[0]!, files), config, storeFor(config))));
      const store = storeFor(config);
      await store.init();
      try {
        const catalogue = new CatalogueService(store);
        expect((await catalogue.regions('CZ')).length).toBe(14);
        expect((await catalogue.counties('CZ')).length).toBe(77);
        expect((await catalogue.municipalities('CZ')).length).toBe(catalogueMunicipalities());
        expect(await store.count('CZ', 'address')).toBe(expectedAddresses);
        expect(await holes(store)).toBe(0);
        const search = new PlacesSearchService(store);
        const praha = await search.municipality({ query: 'Praha', country: ['CZ'] } as never);
        expect(praha[0]).toMatchObject({ object: 'municipality', municipality: 'Praha', region: 'Hlavní město Praha' });
        const postal = await search.postal({ query: '110 00', country: ['CZ'] } as never);
        expect(postal.map((p) => (p as unknown as { postal_code: string }).postal_code)).toContain('110 00');
        // A municipality with addresses keeps their weight and centroid after the catalogue's re-import.
        const weighted = (await store.list('CZ', 'municipality')).filter((m) => m.weight > 0 && m.lat !== null);
        expect(weighted.length).toBeGreaterThanOrEqual(40);
      } finally {
        await store.close();
      }
      process.stderr.write(`${engine} ${order}:\n${lines.filter((l) => !l.startsWith("  ")).join("\n")}\n`);
    }, 300000);
  }
}

describeWithData([ZIP, PSC, GEONAMES], 'README import commands on the real CZ files (SQLite)', () => {
  readmeOrderSuite('SQLite', (config) => createPlacesStore(config), async (store) => {
    const db = (store as unknown as { conn: import('better-sqlite3').Database }).conn;
    return (db.prepare(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'address' AND (county_id IS NULL OR region_id IS NULL)`).get() as { n: number }).n;
  });
});

describeWith(['opensearch'], 'README import commands on the real CZ files (OpenSearch)', () => {
  const prefix = uniqueName('readme');
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
  });
  (existsSync(ZIP) ? describe : describe.skip)('distributed store', () => {
    // One index prefix per data dir (per order).
    const prefixes = new Map<string, string>();
    const os = (config: AppConfig) => {
      const p = prefixes.get(config.DATA_DIR) ?? `${prefix}-${prefixes.size}`;
      prefixes.set(config.DATA_DIR, p);
      return createPlacesStore(loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: p }));
    };
    readmeOrderSuite('OpenSearch', os, async (store) => {
      const alias = (store as unknown as { alias: string }).alias;
      await client.indices.refresh({ index: alias });
      const res = await client.count({ index: alias, body: { query: { bool: { filter: [{ term: { country: 'CZ' } }, { term: { object: 'address' } }], should: [{ bool: { must_not: { exists: { field: 'county_id' } } } }, { bool: { must_not: { exists: { field: 'region_id' } } } }], minimum_should_match: 1 } } } as never });
      return (res.body as { count: number }).count;
    });
  });
});

const SK_DAVKY = sharedData('sk/davky.zip');
const SK_CHANGE = sharedData('sk/zmenovadavka5156536.xml');
const SK_GEONAMES = sharedData('geonames/SK.txt');

describeWithData([SK_DAVKY, SK_CHANGE, SK_GEONAMES], 'README import commands on the real SK files (SQLite)', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('the initial batches give streets and municipalities; the change batch adds its entrances with positions; twice = once', async () => {
    const config = loadConfig({}, { DATA_DIR: dir.path });
    const files = { 'davky.zip': SK_DAVKY, 'SK.txt': SK_GEONAMES, 'zmenovadavka5156536.xml': SK_CHANGE };
    const commands = readmeImportCommands('SK');
    expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses', 'address-changes']);
    const lines: string[] = [];
    for (const argv of [...commands, commands.at(-1)!]) lines.push(...(await run(withFiles(argv, files), config, createPlacesStore(config))));
    // The initial batches hold no entrances: the import says so, and which command brings them.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}note: no address points in this dataset: .* address searches of SK find none yet; .*npm run import -- address-changes SK/));
    const changes = lines.filter((l) => l.startsWith('SK address-changes'));
    expect(changes[0]).toMatch(/[1-9]\d* documents upserted/);
    expect(changes[1]).toMatch(/\(0 new\), 0 documents upserted, 0 deleted/);
    await expectRealSkAnswers(config);
  }, 120000);
});
