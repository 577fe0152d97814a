import { AppConfig } from '@lookup/shared/config';
import { createPlacesStore, importCatalogue, PlacesStore } from '@lookup/places';

export class ImportUsageError extends Error {}

export const IMPORT_USAGE = `Usage: npm run import -- catalogue <CZ|SK> [options]
  CZ: --psc-list psc-list.csv [--geonames CZ.txt]
  SK: --register DavkaInit.zip|batch.xml [--register ...] [--geonames SK.txt]
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
  if (what !== 'catalogue' || (country !== 'CZ' && country !== 'SK')) throw new ImportUsageError(IMPORT_USAGE);
  const o = options(rest);
  const geonames = o.get('geonames')?.[0];
  const sources =
    country === 'CZ'
      ? { country, sources: { pscList: required(o, 'psc-list')[0], geonames } } as const
      : { country, sources: { register: required(o, 'register'), geonames } } as const;
  await store.init();
  try {
    const t0 = Date.now();
    const r = await importCatalogue(store, sources, 'cli');
    out(`${r.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.withoutCoordinates} without coordinates) into ${store.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const e of r.errors.slice(0, 20)) out(`  reported: ${e}`);
    if (r.errors.length > 20) out(`  ... and ${r.errors.length - 20} more`);
  } finally {
    await store.close();
  }
}

function required(o: Map<string, string[]>, name: string): string[] {
  const v = o.get(name);
  if (!v?.length) throw new ImportUsageError(`--${name} is required\n${IMPORT_USAGE}`);
  return v;
}
