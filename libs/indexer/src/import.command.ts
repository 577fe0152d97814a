import { AppConfig } from '@lookup/shared/config';
import { createPlacesStore, importCatalogueAndPostalCodes, PlacesStore } from '@lookup/places';
import { ImportUsageError } from './cli/import-args';

// One class for every usage error of the import CLI (exit code 2), the dataset commands' too.
export { ImportUsageError };

export const IMPORT_USAGE = `Usage: npm run import -- catalogue <CZ|SK|PL|AT|CH|LI> [options]
  CZ: --psc-list psc-list.csv [--geonames CZ.txt]
  SK: --register DavkaInit.zip|batch.xml [--register ...] [--geonames SK.txt]
  PL, AT, CH, LI: --geonames PL.txt (catalogue and postal codes from the GeoNames postal file)
  With --geonames, the file's postal codes are imported too (a register's own postal codes are kept).
Writes into the profile's store: SQLite under DATA_DIR (standalone) or OpenSearch (PROFILE=distributed).`;

function options(args: string[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i];
    const v = args[i + 1];
    if (!k?.startsWith('--') || v === undefined) throw new ImportUsageError(IMPORT_USAGE);
    m.set(k.slice(2), [...(m.get(k.slice(2)) ?? []), v]);
  }
  return m;
}

/** The import CLI's work; the dataset-update events and scheduler of issue #5 will call the same importers. */
export async function runImport(argv: string[], config: AppConfig, out: (line: string) => void, store: PlacesStore = createPlacesStore(config)): Promise<void> {
  const [what, country, ...rest] = argv;
  if (what !== 'catalogue' || !['CZ', 'SK', 'PL', 'AT', 'CH', 'LI'].includes(country ?? '')) throw new ImportUsageError(IMPORT_USAGE);
  const o = options(rest);
  const geonames = o.get('geonames')?.[0];
  const sources =
    country === 'CZ'
      ? { country, sources: { pscList: required(o, 'psc-list')[0], geonames } } as const
      : country === 'SK'
        ? { country, sources: { register: required(o, 'register'), geonames } } as const
        : { country: country as 'PL' | 'AT' | 'CH' | 'LI', sources: { geonames: required(o, 'geonames')[0] } } as const;
  await store.init();
  try {
    const t0 = Date.now();
    const { catalogue: r, geonames: g } = await importCatalogueAndPostalCodes(store, sources, 'cli');
    out(`${r.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.withoutCoordinates} without coordinates) into ${store.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (g) out(`${r.country}: ${g.report.postalCodes} postal codes from GeoNames (${g.report.keptExisting} kept from the register, ${g.report.withoutMunicipality} without a municipality)`);
    const errors = [...r.errors, ...(g?.report.errors ?? [])];
    for (const e of errors.slice(0, 20)) out(`  reported: ${e}`);
    if (errors.length > 20) out(`  ... and ${errors.length - 20} more`);
  } finally {
    await store.close();
  }
}

function required(o: Map<string, string[]>, name: string): string[] {
  const v = o.get(name);
  if (!v?.length) throw new ImportUsageError(`--${name} is required\n${IMPORT_USAGE}`);
  return v;
}
