import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenSearchPlacesStore, PlacesStore, SqlitePlacesStore } from '@lookup/places';
import { loadConfig, projectRoot } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { DatasetKind, DatasetUpdatedEvent } from '../datasets/dataset-event';
import { runImport } from '../import.command';
import { runDatasetImport } from '../cli/dataset-import';
import { DatasetRunner } from './dataset-runner';

const FIXTURES = join(projectRoot(), 'libs/places/src/fixtures');
const GEONAMES_PL = join(FIXTURES, 'geonames/PL.txt');
/** PRG 2012: addresses with the postal codes 59-706 (GeoNames has it too), 80-827 (two addresses) and 80-855. */
const PRG = join(FIXTURES, 'pl/PRG_PunktyAdresowe-2012-22.xml');

/**
 * The next GeoNames file: 00-950 moved, 80-001 dropped, 05-510 new, and 80-827, which the register
 * gives, now listed too.
 */
function nextGeonames(dir: string): string {
  const rows = readFileSync(GEONAMES_PL, 'utf8').split('\n').filter(Boolean);
  const next = rows
    .filter((r) => !r.includes('\t80-001\t'))
    .map((r) => (r.includes('\t00-950\t') ? r.replace('52.2301\t21.0118', '52.2400\t21.0200') : r));
  next.push('PL\t05-510\tKonstancin-Jeziorna\tMazovia\t78\tPowiat piaseczyński\t1418\tKonstancin-Jeziorna\t141803\t52.0930\t21.1170\t');
  next.push('PL\t80-827\tGdańsk\tPomerania\t82\tGdańsk\t2261\tGdańsk\t226101\t54.3500\t18.6500\t');
  const file = join(dir, 'PL-next.txt');
  writeFileSync(file, next.join('\n') + '\n');
  return file;
}

function event(kind: DatasetKind, format: string, location: string): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'PL', kind, format, location, publishedAt: new Date().toISOString() });
}

async function postal(store: PlacesStore, code: string) {
  // Stored without the dash (`00950`), written with it in answers.
  return store.get(`pl_p${code.replace('-', '')}`);
}

/**
 * A GeoNames refresh replaces the postal codes the earlier file gave (moved, dropped, new), while
 * the ones the live addresses give stay the register's own; the same through the dataset path
 * (`import postal-codes`, the indexer's events), which once wrote no postal codes at all.
 */
function refreshContract(newStore: () => PlacesStore, dir: () => string) {
  it('postal-codes dataset, addresses, then a newer GeoNames file: moved, dropped and new codes, the register\'s own kept', async () => {
    const store = newStore();
    await store.init();
    try {
      const runner = new DatasetRunner({ places: store, config: {} });
      const first = await runner.run(event('postal-codes', 'geonames', GEONAMES_PL));
      expect(first.postalCodes).toEqual({ file: 9, register: 0, both: 0 });
      expect(await store.count('PL', 'postal_code')).toBe(9);
      expect(await postal(store, '80-001')).toMatchObject({ name: '80001', lat: 54.351 });

      await runner.run(event('addresses', 'pl-prg-gml', PRG));
      const registerOwn = await postal(store, '80-827');
      expect(registerOwn).toMatchObject({ name: '80827', weight: 2 });
      const gromadka = await postal(store, '59-706');
      expect(gromadka!.weight).toBe(1); // the register's (one address), not GeoNames' (one row, at GeoNames' point)
      expect(gromadka!.lat).not.toBe(51.371);

      const next = await runner.run(event('postal-codes', 'geonames', nextGeonames(dir())));
      // 10 rows' codes: 9 - 80-001 + 05-510 + 80-827; the addresses give 3 (two of them in the file).
      expect(next.postalCodes).toEqual({ file: 10, register: 3, both: 2 });
      expect(await postal(store, '80-001')).toBeNull();
      expect(await postal(store, '00-950')).toMatchObject({ lat: 52.24, lng: 21.02 });
      expect(await postal(store, '05-510')).toMatchObject({ name: '05510' });
      expect(await postal(store, '80-827')).toMatchObject({ weight: 2, lat: registerOwn!.lat, lng: registerOwn!.lng });
      expect(await postal(store, '59-706')).toMatchObject({ weight: 1, lat: gromadka!.lat });
      expect(await postal(store, '80-855')).toMatchObject({ weight: 1 });
      // 9 codes of the first file - 80-001 + 05-510 + the register's 80-827 and 80-855.
      expect(await store.count('PL', 'postal_code')).toBe(11);
      // The addresses themselves were carried.
      expect(await store.count('PL', 'address')).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('the catalogue command: a refresh with addresses live moves and drops what GeoNames moved and dropped', async () => {
    const store = newStore();
    await store.init();
    const runner = new DatasetRunner({ places: store, config: {} });
    await runner.run(event('addresses', 'pl-prg-gml', PRG));
    await store.close();
    const config = configFor(dir());
    const lines: string[] = [];
    await runImport(['catalogue', 'PL', '--geonames', GEONAMES_PL], config, (l) => lines.push(l), newStore());
    await runImport(['catalogue', 'PL', '--geonames', nextGeonames(dir())], config, (l) => lines.push(l), newStore());
    expect(lines.filter((l) => l.includes('postal codes from GeoNames'))).toEqual([
      'PL: 9 postal codes from GeoNames (1 kept from the register, 0 without a municipality)',
      'PL: 10 postal codes from GeoNames (2 kept from the register, 0 without a municipality)',
    ]);
    const after = newStore();
    await after.init();
    try {
      expect(await postal(after, '80-001')).toBeNull();
      expect(await postal(after, '00-950')).toMatchObject({ lat: 52.24, lng: 21.02 });
      expect(await postal(after, '80-827')).toMatchObject({ weight: 2 });
      expect(await after.count('PL', 'postal_code')).toBe(11);
    } finally {
      await after.close();
    }
  });
}

let configFor: (dir: string) => ReturnType<typeof loadConfig>;

describe('a GeoNames refresh of the PL postal codes (SQLite)', () => {
  const dir = tempDir('postal-refresh-');
  let n = 0;
  // Each test its own store file (the data dir of the catalogue command's config).
  const sub = () => join(dir.path, `s${n}`);
  beforeEach(() => {
    n++;
    mkdirSync(sub(), { recursive: true });
    configFor = (d) => loadConfig({}, { DATA_DIR: d });
  });
  afterAll(() => dir.remove());
  refreshContract(() => new SqlitePlacesStore(join(sub(), 'places.sqlite')), sub);
});

describeWith(['opensearch'], 'a GeoNames refresh of the PL postal codes (OpenSearch)', () => {
  const dir = tempDir('postal-refresh-os-');
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  let prefix = '';
  const prefixes: string[] = [];
  beforeEach(() => {
    prefix = uniqueName('pcr');
    prefixes.push(prefix);
    configFor = (d) => loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: d });
  });
  afterAll(async () => {
    for (const p of prefixes) await client.indices.delete({ index: `${p}-*` }).catch(() => undefined);
    await client.close();
    dir.remove();
  });
  refreshContract(() => new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix), () => dir.path);
});

describe('import status after a refresh of the catalogue layer (SQLite)', () => {
  const dir = tempDir('postal-status-');
  afterAll(() => dir.remove());

  it('lists the layer once: the catalogue or postal-codes import that made it live last', async () => {
    const config = loadConfig({}, { DATA_DIR: dir.path });
    const store = new SqlitePlacesStore(config.sqlitePath);
    await store.init();
    const deps = { out: () => undefined, progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000, places: store };
    const status = async () => {
      const lines: string[] = [];
      await runDatasetImport(['status'], config, { ...deps, out: (l) => void lines.push(l) });
      return lines.filter((l) => l.startsWith('PL '));
    };
    try {
      await runImport(['catalogue', 'PL', '--geonames', GEONAMES_PL], config, () => undefined, new SqlitePlacesStore(config.sqlitePath));
      await runDatasetImport(['postal-codes', 'PL', nextGeonames(dir.path)], config, deps);
      expect(await status()).toEqual([expect.stringMatching(/^PL postal-codes .* from .*PL-next\.txt$/)]);
      await runImport(['catalogue', 'PL', '--geonames', GEONAMES_PL], config, () => undefined, new SqlitePlacesStore(config.sqlitePath));
      expect(await status()).toEqual([expect.stringMatching(/^PL catalogue .* from .*geonames\/PL\.txt$/)]);
    } finally {
      await store.close();
    }
  });
});
