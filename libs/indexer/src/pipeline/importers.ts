import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CountryCode, PlaceObject } from '@lookup/contracts';
import { AppConfig, projectRoot } from '@lookup/shared/config';
import {
  atPlaceDocs, Catalogue, chPlaceDocs, GeonamesImportReport, geonamesPlaceDocs, isGeonamesCatalogueCountry, liPlaceDocs, loadCatalogue, LoadedCatalogue, loadGeonamesCatalogue, PlaceDoc,
  plPlaceDocs, ruianPlaceDocs, skRegisterPlaceDocs,
} from '@lookup/places';
import { aresSubjects, aresToDoc, BusinessDoc, lacksDetail, mergeRpoEntities, readResCsvFile, rpoEntities, rpoToDoc } from '@lookup/business';

/** What an importer tells the runner besides its documents. */
export interface ImporterReport {
  /** Source rows or records that did not become a document. */
  skipped: number;
  errors: string[];
  /** Address points the source held, when the importer counts them (checked against the new version). */
  addresses?: number;
}

export interface ImportContext {
  /** The dataset file (or folder) on the local file system. */
  path: string;
  /** The dataset as the event names it (the user's path or the URL), and its format: for messages. */
  source?: { location: string; format: string };
  country: CountryCode;
  config: Pick<AppConfig, 'CZ_CATALOGUE_CSV' | 'SK_REGISTER_BATCHES' | 'GEONAMES_DIR'>;
  /** The country's live region, county and municipality documents (an address import joins its addresses to them). */
  liveCatalogue?: PlaceDoc[];
  /** The new version carries nothing of the live one (it replaces the bundled sample whole): no live document is to be kept. */
  replacesAll?: boolean;
  /** Called once, when the documents are all read. */
  report(r: ImporterReport): void;
  /** Tells the user something about the result (what is missing and which command fills it). */
  note?(line: string): void;
  /** Bytes of the source read so far, of its total (the progress bar's fraction and ETA). */
  bytes?(read: number, total: number): void;
}

/** The layers of a country's version (libs/indexer/README.md, "What a version holds"). */
export type PlacesLayer = 'addresses' | 'catalogue';

export interface PlacesImporter {
  target: 'places';
  layer: PlacesLayer;
  docs(ctx: ImportContext): AsyncIterable<PlaceDoc[]>;
}

export interface BusinessImporter {
  target: 'business';
  docs(ctx: ImportContext): AsyncIterable<BusinessDoc[]>;
}

export type DatasetImporter = PlacesImporter | BusinessImporter;

/**
 * What an import of each layer replaces in the country's live version; everything else is carried
 * over. The addresses layer owns the addresses and streets and upserts its derived postal codes,
 * municipalities, counties and regions over the carried ones (same ids); the catalogue layer owns
 * the regions, counties and municipalities, and the postal codes too when it brings a GeoNames
 * file (the runner adds them: CatalogueComposer.ownsPostalCodes).
 */
export const LAYER_REPLACES: Record<PlacesLayer, PlaceObject[]> = {
  addresses: ['address', 'street'],
  catalogue: ['region', 'county', 'municipality'],
};
const BATCH = 2000;

/** The CZ catalogue the RUIAN import joins addresses to: the live one, else the configured `psc-list.csv`, else the bundled sample. */
function czCatalogue(ctx: ImportContext): { docs: PlaceDoc[] } | { pscList: string } {
  if (ctx.liveCatalogue?.some((d) => d.object === 'county')) return { docs: ctx.liveCatalogue };
  if (ctx.config.CZ_CATALOGUE_CSV) return { pscList: ctx.config.CZ_CATALOGUE_CSV };
  ctx.note?.(
    'no CZ catalogue is live: addresses outside the bundled sample catalogue get no county or region, and municipalities without addresses are missing. ' +
      'Import it (any order works): npm run import -- catalogue CZ --psc-list zv_cobce_psc.zip --geonames CZ.txt',
  );
  return { pscList: join(projectRoot(), 'libs/places/src/fixtures/cz/psc-list.csv') };
}

/**
 * The SK catalogue the register's addresses join: the live one. Without it the register's own
 * regions, counties and municipalities are written, positioned only by their addresses.
 */
function skLiveCatalogue(ctx: ImportContext): PlaceDoc[] | undefined {
  if (ctx.liveCatalogue?.some((d) => d.object === 'county')) return ctx.liveCatalogue;
  ctx.note?.(
    'no SK catalogue is live: regions, counties and municipalities come from the register, positioned only where their addresses have positions. ' +
      'Import it (any order works): npm run import -- catalogue SK --register davky.zip --geonames SK.txt',
  );
  return undefined;
}

function geonamesFile(ctx: ImportContext): string | undefined {
  return ctx.config.GEONAMES_DIR ? join(ctx.config.GEONAMES_DIR, `${ctx.country}.txt`) : undefined;
}

function* batches<T>(docs: T[]): Generator<T[]> {
  for (let i = 0; i < docs.length; i += BATCH) yield docs.slice(i, i + BATCH);
}

/** What a catalogue import read, told as it goes (the catalogue command prints both). */
export interface CatalogueDocsHooks {
  onCatalogue?(loaded: LoadedCatalogue): void;
  onPostalCodes?(report: GeonamesImportReport): void;
}

/**
 * A country's catalogue layer: its regions, counties and municipalities, then, with a GeoNames
 * file, the file's postal codes. The layer owns those (CatalogueComposer): a refresh moves and
 * drops them as the file does, and the ones the live addresses give stay the register's own.
 */
export async function* catalogueDocs(ctx: ImportContext, sources: { pscList?: string; register?: string[]; geonames?: string }, hooks: CatalogueDocsHooks = {}): AsyncGenerator<PlaceDoc[]> {
  const req =
    ctx.country === 'CZ'
      ? { country: 'CZ' as const, sources: { pscList: sources.pscList ?? ctx.config.CZ_CATALOGUE_CSV ?? '', geonames: sources.geonames } }
      : ctx.country === 'SK'
        ? { country: 'SK' as const, sources: { register: sources.register ?? (ctx.config.SK_REGISTER_BATCHES ?? '').split(',').filter(Boolean), geonames: sources.geonames } }
        : { country: ctx.country, sources: { geonames: sources.geonames ?? '' } };
  // What the country's catalogue is built from besides GeoNames: a setting of the operator's, the same on every try.
  if (req.country === 'SK' && req.sources.register.length === 0) throw new PermanentDatasetError('an SK catalogue needs SK_REGISTER_BATCHES (the Register adries batches), or: npx lookup import catalogue SK --register <DavkaInit.zip> --geonames <SK.txt>');
  if (req.country === 'CZ' && !req.sources.pscList) throw new PermanentDatasetError('a CZ catalogue needs the Czech Post PSC list: set CZ_CATALOGUE_CSV=<zv_cobce_psc.zip>, or: npx lookup import catalogue CZ --psc-list <zv_cobce_psc.zip> --geonames <CZ.txt> (Česká pošta\'s list of municipality parts with PSČ)');
  const loaded = await loadCatalogue(req as Parameters<typeof loadCatalogue>[0]);
  hooks.onCatalogue?.(loaded);
  yield* batches(loaded.docs);
  const errors = [...loaded.report.errors];
  let skipped = 0;
  const geonames = req.sources.geonames;
  if (geonames) {
    let postal: GeonamesImportReport | undefined;
    // PL/AT/CH/LI municipalities are the catalogue's own (above): its postal codes only.
    yield* geonamesPlaceDocs({ country: ctx.country, file: geonames, catalogue: loaded.catalogue, skipMunicipalities: true, batchSize: BATCH, onReport: (r) => (postal = r) });
    hooks.onPostalCodes?.(postal!);
    // The file's unreadable lines are told once, whichever reader met them.
    for (const e of postal!.errors) if (!errors.includes(e)) errors.push(e);
    skipped += postal!.skipped;
  }
  ctx.report({ skipped, errors });
}

type RegisterImporter = (opts: { sources: string[]; catalogue?: Catalogue; onReport?: (r: { skipped: number; errors: string[]; addresses: number }) => void }) => AsyncIterable<PlaceDoc[]>;

/**
 * PL/AT/CH/LI registers: their regions and counties are named from the GeoNames catalogue in
 * GEONAMES_DIR when it is there; without it the importers name what their own tables name.
 */
function registerDocs(importer: RegisterImporter): PlacesImporter['docs'] {
  return async function* (ctx) {
    const file = geonamesFile(ctx);
    const catalogue = file && existsSync(file) && isGeonamesCatalogueCountry(ctx.country) ? await loadGeonamesCatalogue(ctx.country, file) : undefined;
    yield* importer({ sources: [ctx.path], catalogue, onReport: addressReport(ctx) });
  };
}

function addressReport(ctx: ImportContext) {
  return (r: { skipped: number; errors: string[]; addresses: number }) => ctx.report({ skipped: r.skipped, errors: r.errors, addresses: r.addresses });
}

/**
 * `format -> importer`. A new format is one line here (and one in cli/dataset-formats.ts).
 * Each format fills one layer of the country's version (LAYER_REPLACES).
 */
export const IMPORTERS: Record<string, DatasetImporter> = {
  'ruian-csv': { target: 'places', layer: 'addresses', docs: (c) => ruianPlaceDocs({ zipOrDir: c.path, catalogue: czCatalogue(c), onReport: addressReport(c), onBytes: c.bytes }) },
  'sk-register': { target: 'places', layer: 'addresses', docs: (c) => skRegisterPlaceDocs({ sources: [c.path], liveCatalogue: skLiveCatalogue(c), onReport: addressReport(c) }) },
  'pl-prg-gml': { target: 'places', layer: 'addresses', docs: registerDocs(plPlaceDocs) },
  'at-bev-csv': { target: 'places', layer: 'addresses', docs: registerDocs(atPlaceDocs) },
  'ch-swisstopo-csv': { target: 'places', layer: 'addresses', docs: registerDocs(chPlaceDocs) },
  'li-osm-pbf': { target: 'places', layer: 'addresses', docs: registerDocs(liPlaceDocs) },
  'cz-catalogue-csv': { target: 'places', layer: 'catalogue', docs: (c) => catalogueDocs(c, { pscList: c.path, geonames: geonamesFile(c) }) },
  geonames: { target: 'places', layer: 'catalogue', docs: (c) => catalogueDocs(c, { geonames: c.path }) },
  'cz-res-csv': { target: 'business', docs: resDocs },
  'sk-rpo-json': { target: 'business', docs: rpoDocs },
  'cz-ares-json': { target: 'business', docs: (c) => jsonDocs(c, (j) => aresSubjects(j).map((s) => aresToDoc(s))) },
};

async function* resDocs(ctx: ImportContext): AsyncGenerator<BusinessDoc[]> {
  let skipped = 0;
  yield* readResCsvFile(ctx.path, { batchSize: BATCH, onSkip: () => skipped++ });
  ctx.report({ skipped, errors: [] });
}

/**
 * RPO answers: one JSON file, or a folder of them (search answers and the detail answers of the
 * same entities, `/rpo/v1/search` and `/rpo/v1/entity/{id}`), merged by entity as the business
 * CLI does: the detail fills the legal form and main activity the search answer lacks.
 */
async function* rpoDocs(ctx: ImportContext): AsyncGenerator<BusinessDoc[]> {
  const files = statSync(ctx.path).isDirectory()
    ? readdirSync(ctx.path).filter((f) => f.toLowerCase().endsWith('.json')).sort().map((f) => join(ctx.path, f))
    : [ctx.path];
  if (!files.length) throw new Error(`${ctx.path}: no .json RPO answers in the folder`);
  const entities = files.flatMap((f) => rpoEntities(JSON.parse(readFileSync(f, 'utf8'))));
  const merged = mergeRpoEntities(entities);
  const docs: BusinessDoc[] = [];
  let withoutDetail = 0;
  for (const e of merged) {
    const d = rpoToDoc(e);
    if (!d) continue;
    docs.push(d);
    if (lacksDetail(e)) withoutDetail++;
  }
  yield* batches(docs);
  if (withoutDetail) ctx.note?.(`${withoutDetail} of ${docs.length} RPO entities came without their detail answer: no legal form and no sector (give /rpo/v1/entity/{id} answers with the search answers)`);
  ctx.report({ skipped: merged.length - docs.length, errors: [] });
}

async function* jsonDocs(ctx: ImportContext, parse: (json: unknown) => Array<BusinessDoc | null>): AsyncGenerator<BusinessDoc[]> {
  const all = parse(JSON.parse(readFileSync(ctx.path, 'utf8')));
  const docs = all.filter((d): d is BusinessDoc => d !== null);
  yield* batches(docs);
  ctx.report({ skipped: all.length - docs.length, errors: [] });
}

export function importerFor(format: string): DatasetImporter {
  const i = IMPORTERS[format];
  if (!i) throw new PermanentDatasetError(`format: no importer for "${format}" (known: ${Object.keys(IMPORTERS).join(', ')})`);
  return i;
}

/** A failure that retrying cannot fix (bad checksum, unknown format, unreadable file): dead-lettered at once. */
export class PermanentDatasetError extends Error {
  readonly permanent = true;
}
