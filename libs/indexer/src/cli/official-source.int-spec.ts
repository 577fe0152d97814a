import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '@lookup/shared/config';
import { createPlacesStore } from '@lookup/places';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { DatasetTestServer } from '../download/dataset-server.testing';
import { runDatasetImport } from './dataset-import';
import { officialCandidates } from './official-source';

const RUIAN = resolve(__dirname, '../../../places/src/fixtures/ruian/CSV');

describe('the current official file, when no file is given', () => {
  it('RUIAN: the monthly product of the last day of the previous month, then of the month before', () => {
    const config = loadConfig({}, {});
    expect(officialCandidates('CZ', 'addresses', config, new Date('2026-11-23T10:00:00Z'))).toEqual([
      'https://vdp.cuzk.cz/vymenny_format/csv/20261031_OB_ADR_csv.zip',
      'https://vdp.cuzk.cz/vymenny_format/csv/20260930_OB_ADR_csv.zip',
    ]);
    expect(officialCandidates('CZ', 'addresses', config, new Date('2026-01-05T00:00:00Z')).slice(0, 1)).toEqual(['https://vdp.cuzk.cz/vymenny_format/csv/20251231_OB_ADR_csv.zip']);
    // The scheduler's configured source comes first.
    const scheduled = loadConfig({}, { SCHEDULER_SOURCES: JSON.stringify([{ country: 'CZ', kind: 'addresses', format: 'ruian-csv', url: 'https://mirror.example/adr.zip' }]) });
    expect(officialCandidates('CZ', 'addresses', scheduled)[0]).toBe('https://mirror.example/adr.zip');
  });

  it('`addresses CZ` alone resolves the published file on the (loopback) publisher, downloads and imports it', async () => {
    const server = new DatasetTestServer();
    const base = await server.start();
    const dir = tempDir();
    try {
      const config = loadConfig({}, { DATA_DIR: dir.path, RUIAN_CSV_BASE_URL: `${base}/vymenny_format/csv` });
      const zip = join(dir.path, 'published.zip');
      writeTestZip(zip, readdirSync(RUIAN).map((f) => ({ name: `CSV/${f}`, data: readFileSync(join(RUIAN, f)), deflate: true })));
      // Not yet published for the last month: the month before is the current one.
      const [, previous] = officialCandidates('CZ', 'addresses', config);
      server.paths.set(new URL(previous!).pathname, { kind: 'file', body: readFileSync(zip) });
      const out: string[] = [];
      await runDatasetImport(['addresses', 'CZ'], config, { out: (l) => void out.push(l), progress: { write: () => true, isTTY: false } });
      expect(out[0]).toBe(`CZ addresses: the current official file is ${previous}`);
      expect(out[1]).toMatch(/^CZ addresses \(ruian-csv\): version \d+ live in sqlite/);
      const store = createPlacesStore(config);
      await store.init();
      expect(await store.count('CZ', 'address')).toBeGreaterThan(5);
      await store.close();
    } finally {
      await server.stop();
      dir.remove();
    }
  });
});
