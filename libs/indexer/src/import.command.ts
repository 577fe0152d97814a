import { AppConfig } from '@lookup/shared/config';
import { createDatasetStatus, createPlacesStore, dataDirImportLock, GeonamesImportReport, LoadedCatalogue, PlacesStore } from '@lookup/places';
import { ImportUsageError } from './cli/import-args';
import { DatasetUpdatedEvent } from './datasets/dataset-event';
import { DatasetRunner, DatasetRunOptions, DatasetRunReport } from './pipeline/dataset-runner';
import { catalogueDocs, PlacesImporter } from './pipeline/importers';
import { layerDocs } from './cli/dataset-status';


// One class for every usage error of the import CLI (exit code 2), the dataset commands' too.
export { ImportUsageError };

export const IMPORT_USAGE = `Usage: npm run import -- catalogue <CZ|SK|PL|AT|CH|LI> [options]
  CZ: --psc-list zv_cobce_psc.zip [--geonames CZ.txt]   (Česká pošta's list of municipality parts with PSČ, or a CSV of its columns)
  SK: --register DavkaInit.zip|batch.xml [--register ...] [--geonames SK.txt]
  PL, AT, CH, LI: --geonames PL.txt (catalogue and postal codes from the GeoNames postal file)
  With --geonames, the file's postal codes are imported too, replacing the ones an earlier file gave
  (a code that the country's addresses give stays the register's own).
  --dry-run  read and count the files, print what they hold, write nothing
  --force    accept a version with far fewer documents than the live one
Writes into the profile's store: SQLite under DATA_DIR (standalone) or OpenSearch (PROFILE=distributed).
What is live: npm run import -- status`;

const CATALOGUE_OPTIONS = new Set(['psc-list', 'register', 'geonames', 'wait-timeout']);
/** Options without a value, as the dataset commands take them. */
const CATALOGUE_FLAGS = new Set(['--wait', '--dry-run', '--force']);

/**
 * `--name value` pairs, and the flags. `--wait` (and `--wait-timeout s`), as the dataset commands
 * take them, are accepted and change nothing: this command writes the catalogue itself and
 * returns when it is live.
 */
function options(args: string[]): { values: Map<string, string[]>; flags: Set<string> } {
  const m = new Map<string, string[]>();
  const flags = new Set(args.filter((a) => CATALOGUE_FLAGS.has(a)));
  const pairs = args.filter((a) => !CATALOGUE_FLAGS.has(a));
  for (let i = 0; i < pairs.length; i += 2) {
    const k = pairs[i]!;
    const v = pairs[i + 1];
    if (!k.startsWith('--')) throw new ImportUsageError(`unexpected argument ${k}\n${IMPORT_USAGE}`);
    if (!CATALOGUE_OPTIONS.has(k.slice(2))) throw new ImportUsageError(`unknown option ${k}\n${IMPORT_USAGE}`);
    if (v === undefined || v.startsWith('--')) throw new ImportUsageError(`${k} needs a value\n${IMPORT_USAGE}`);
    m.set(k.slice(2), [...(m.get(k.slice(2)) ?? []), v]);
  }
  return { values: m, flags };
}

/**
 * The catalogue command: a new version of the country's catalogue layer (regions, counties,
 * municipalities and the GeoNames postal codes), composed with its live addresses (see
 * libs/indexer/README.md, "What a version holds"); through the same runner as every dataset.
 */
export async function runImport(argv: string[], config: AppConfig, out: (line: string) => void, store: PlacesStore = createPlacesStore(config), runOptions: DatasetRunOptions = {}): Promise<DatasetRunReport> {
  const [what, country, ...rest] = argv;
  if (what !== 'catalogue') throw new ImportUsageError(IMPORT_USAGE);
  if (!['CZ', 'SK', 'PL', 'AT', 'CH', 'LI'].includes(country ?? '')) throw new ImportUsageError(`country: ${country === undefined ? 'missing' : `unknown country ${country}`}; one of CZ, SK, PL, AT, CH, LI\n${IMPORT_USAGE}`);
  const { values: o, flags } = options(rest);
  const dryRun = flags.has('--dry-run');
  const geonames = o.get('geonames')?.[0];
  const sources =
    country === 'CZ'
      ? { country, sources: { pscList: required(o, 'psc-list')[0], geonames } } as const
      : country === 'SK'
        ? { country, sources: { register: required(o, 'register'), geonames } } as const
        : { country: country as 'PL' | 'AT' | 'CH' | 'LI', sources: { geonames: required(o, 'geonames')[0] } } as const;
  // One import at a time per data directory (SQLite); OpenSearch has a lease per country, taken by the runner.
  const lock = dataDirImportLock(store, config.sqlitePath, argv.join(' '), { dryRun });
  // The profile's status store: the data dir's file, or in the distributed profile the index every places replica and `import status` read.
  const status = createDatasetStatus(config);
  try {
    await store.init();
    let loaded: LoadedCatalogue | undefined;
    let postal: GeonamesImportReport | undefined;
    const importer: PlacesImporter = {
      target: 'places',
      layer: 'catalogue',
      docs: (ctx) => catalogueDocs(ctx, sources.sources, { onCatalogue: (l) => (loaded = l), onPostalCodes: (r) => (postal = r) }),
    };
    const location = (o.get('psc-list') ?? o.get('register') ?? o.get('geonames'))![0]!;
    const event = { country: sources.country, kind: 'catalogue', format: 'catalogue', location, publishedAt: new Date().toISOString() } as DatasetUpdatedEvent;
    const report = await new DatasetRunner({ places: store, config, status }).run(event, { onWait: out, ...runOptions, dryRun, force: flags.has('--force') || runOptions.force }, importer);
    // The wait is told with the summary; the other notes (the bundled sample removed) after it.
    const notes = () => report.notes.filter((n) => !(report.waitedSeconds && n.startsWith('waited '))).forEach((n) => out(`  note: ${n}`));
    if (dryRun) {
      const r = loaded!.report;
      out(`${sources.country}: dry run, nothing written: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.withoutCoordinates} without coordinates)${postal ? `, ${postal.postalCodes} postal codes from GeoNames` : ''}; ${report.docs} documents in all`);
      notes();
      for (const e of report.errors.slice(0, 20)) out(`  reported: ${e}`);
      return report;
    }
    await status.record(sources.country, 'catalogue', { format: 'catalogue', source: ['psc-list', 'register', 'geonames'].flatMap((k) => o.get(k) ?? []).join(', '), since: new Date().toISOString(), version: report.version, docs: report.docs, ...layerDocs(report) });
    const r = loaded!.report;
    out(`${sources.country}: ${r.regions} regions, ${r.counties} counties, ${r.municipalities} municipalities (${r.withoutCoordinates} without coordinates) into ${store.engine} in ${report.seconds.toFixed(1)} s${report.waitedSeconds && report.waitedSeconds >= 1 ? ` (after waiting ${report.waitedSeconds.toFixed(0)} s for another import of ${sources.country})` : ''}`);
    if (postal) out(`${sources.country}: ${postal.postalCodes} postal codes from GeoNames (${report.postalCodes?.both ?? 0} kept from the register, ${postal.withoutMunicipality} without a municipality)`);
    out(`${sources.country}: version ${report.version} live: ${report.docs} documents (previous: ${report.previous ? `${report.previous.version} with ${report.previous.docs}` : 'none'})`);
    notes();
    const errors = report.errors;
    for (const e of errors.slice(0, 20)) out(`  reported: ${e}`);
    if (errors.length > 20) out(`  ... and ${errors.length - 20} more`);
    return report;
  } finally {
    lock?.release();
    await status.close();
    await store.close();
  }
}

function required(o: Map<string, string[]>, name: string): string[] {
  const v = o.get(name);
  if (!v?.length) throw new ImportUsageError(`--${name} is required\n${IMPORT_USAGE}`);
  return v;
}
