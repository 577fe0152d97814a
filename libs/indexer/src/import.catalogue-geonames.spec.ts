import { join, resolve } from 'node:path';
import { loadConfig } from '@lookup/shared/config';
import { CatalogueService, createPlacesStore } from '@lookup/places';
import { tempDir } from '@lookup/shared/testing';
import { runImport } from './import.command';

const FIXTURES = resolve(__dirname, '../../places/src/fixtures/geonames');

/** `npm run import -- catalogue PL --geonames PL.txt` and the like, on the bundled GeoNames-format fixtures. */
describe('import CLI: PL, AT, CH, LI catalogues from GeoNames', () => {
  const dir = tempDir('import-geonames-');
  afterAll(() => dir.remove());

  it('requires --geonames for the GeoNames countries', async () => {
    const config = loadConfig({}, { DATA_DIR: dir.path });
    await expect(runImport(['catalogue', 'AT'], config, () => undefined)).rejects.toThrow('--geonames is required');
    await expect(runImport(['catalogue', 'DE', '--geonames', 'DE.txt'], config, () => undefined)).rejects.toThrow('Usage:');
  });

  it('imports catalogue and postal codes, served by the catalogue service', async () => {
    const config = loadConfig({}, { DATA_DIR: dir.path });
    const lines: string[] = [];
    for (const cc of ['PL', 'AT', 'CH', 'LI']) await runImport(['catalogue', cc, '--geonames', join(FIXTURES, `${cc}.txt`)], config, (l) => lines.push(l));
    expect(lines.filter((l) => l.startsWith('PL: '))).toEqual([
      expect.stringMatching(/^PL: 3 regions, 6 counties, 8 municipalities \(0 without coordinates\) into sqlite in /),
      'PL: 9 postal codes from GeoNames (0 kept from the register, 0 without a municipality)',
      expect.stringMatching(/^PL: version \d+ live: 26 documents \(previous: none\)$/),
    ]);
    const store = createPlacesStore(config);
    await store.init();
    try {
      const svc = new CatalogueService(store);
      expect((await svc.regions('LI')).map((r) => r.name)).toEqual(['Oberland', 'Unterland']);
      expect((await svc.counties('AT')).length).toBe(6);
      expect((await svc.municipalities('CH')).map((m) => m.municipality)).toContain('Genève');
      expect(await store.count('PL', 'postal_code')).toBe(9);
    } finally {
      await store.close();
    }
  });
});
