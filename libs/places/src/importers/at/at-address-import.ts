import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import type { Catalogue } from '../catalogue.types';
import { addressNumber, AtAddressBuilder, AtAddressRow, AtStreet, AtSubAddress, subNumber } from './at-address.builder';
import { BevRow, bevRecords, BevTableName, ColumnIndex, tableSources } from './bev-tables';
import { Occurrences } from './occurrences';

/** The small tables of all sources, later sources replacing earlier rows with the same key. */
interface AtTables {
  streets: Map<string, AtStreet>;
  municipalities: Map<string, string>;
  localities: Map<string, string>;
  /** ADRCD -> SUBCD -> a building with a sub-number; buildings without one add nothing to search. */
  subs: Map<string, Map<string, AtSubAddress>>;
}

type RowError = (where: string, message: string) => void;

/** Every row of one table over all sources, in source order; rows whose width differs from the header are reported. */
async function* tableRows(sources: string[], table: BevTableName, onBadRow: RowError): AsyncGenerator<{ f: (c: string) => string; row: BevRow }> {
  for (const path of sources) {
    for await (const source of tableSources(path, table)) {
      let width = 0;
      let ix: ColumnIndex | null = null;
      for await (const rec of bevRecords(source, table)) {
        if (rec.ix !== ix) [ix, width] = [rec.ix, Object.keys(rec.ix).length];
        const { fields } = rec.row;
        if (fields.length !== width) {
          onBadRow(`${source.name} line ${rec.row.line}`, `${fields.length} values where the header has ${width}`);
          continue;
        }
        const at = rec.ix;
        yield { f: (c) => (fields[at[c]!] ?? '').trim(), row: rec.row };
      }
    }
  }
}

async function readTables(sources: string[], onBadRow: RowError): Promise<AtTables & { found: Set<BevTableName> }> {
  const t: AtTables = { streets: new Map(), municipalities: new Map(), localities: new Map(), subs: new Map() };
  const found = new Set<BevTableName>();
  for await (const { f } of tableRows(sources, 'STRASSE', onBadRow)) {
    found.add('STRASSE');
    // SZUSADRBEST 1: the STRASSENNAMENZUSATZ is part of the name used in addresses.
    const extra = f('SZUSADRBEST') === '1' ? f('STRASSENNAMENZUSATZ') : '';
    t.streets.set(f('SKZ'), { name: extra ? `${f('STRASSENNAME')} ${extra}` : f('STRASSENNAME'), postTown: f('ZUSTELLORT') });
  }
  for await (const { f } of tableRows(sources, 'GEMEINDE', onBadRow)) {
    found.add('GEMEINDE');
    t.municipalities.set(f('GKZ'), f('GEMEINDENAME'));
  }
  for await (const { f } of tableRows(sources, 'ORTSCHAFT', onBadRow)) {
    found.add('ORTSCHAFT');
    t.localities.set(f('OKZ'), f('ORTSNAME'));
  }
  for await (const { f } of tableRows(sources, 'GEBAEUDE', onBadRow)) {
    found.add('GEBAEUDE');
    const adrcd = f('ADRCD');
    const subcd = f('SUBCD');
    const number = subNumber(f('HAUSNRVERBINDUNG2'), f('HAUSNRZAHL3'), f('HAUSNRBUCHSTABE3'), f('HAUSNRVERBINDUNG3'), f('HAUSNRZAHL4'), f('HAUSNRBUCHSTABE4'));
    const known = t.subs.get(adrcd);
    if (!number) {
      // A later version of the building without a sub-number replaces an earlier one with it.
      known?.delete(subcd);
      continue;
    }
    const sub: AtSubAddress = { subcd, number, epsg: f('EPSG'), rw: f('RW'), hw: f('HW') };
    if (known) known.set(subcd, sub);
    else t.subs.set(adrcd, new Map([[subcd, sub]]));
  }
  return { ...t, found };
}

function addressRow(f: (c: string) => string): AtAddressRow {
  return {
    adrcd: f('ADRCD'),
    gkz: f('GKZ'),
    okz: f('OKZ'),
    plz: f('PLZ'),
    skz: f('SKZ'),
    number: addressNumber(f('HAUSNRZAHL1'), f('HAUSNRBUCHSTABE1'), f('HAUSNRVERBINDUNG1'), f('HAUSNRZAHL2'), f('HAUSNRBUCHSTABE2')),
    epsg: f('EPSG'),
    rw: f('RW'),
    hw: f('HW'),
  };
}

/** One sub-address per distinct sub-number (the lowest SUBCD), so two buildings numbered `12/1` give one result. */
function distinctSubs(subs: Map<string, AtSubAddress> | undefined): AtSubAddress[] {
  if (!subs) return [];
  const byNumber = new Map<string, AtSubAddress>();
  for (const s of [...subs.values()].sort((a, b) => (a.subcd < b.subcd ? -1 : a.subcd > b.subcd ? 1 : 0))) {
    if (!byNumber.has(s.number)) byNumber.set(s.number, s);
  }
  return [...byNumber.values()];
}

/**
 * Every PlaceDoc of the BEV Adressregister: `sources` are zips or folders of the tables (or
 * single table files), read in order; a record carried again by a later source (or later in a
 * file) replaces the earlier one. The small tables are held in memory; ADRESSE is streamed
 * twice (first only counting ADRCDs, so only the last version of each becomes a doc). Bad rows
 * are counted in `skipped` and described in `errors`; a row with a bad position or PLZ is kept
 * without it and described.
 */
export async function* atPlaceDocs(opts: {
  sources: string[];
  catalogue?: Catalogue;
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
}): AsyncGenerator<PlaceDoc[]> {
  if (!opts.sources.length) throw new Error('sources: give at least one BEV Adressregister zip or folder');
  const run = new ImportRun('AT', opts.batchSize ?? 1000);
  const skip: RowError = (where, message) => {
    run.report.skipped++;
    run.error(`${where}: ${message}`);
  };
  const tables = await readTables(opts.sources, (where, message) => run.error(`${where}: ${message}`));
  if (!tables.found.has('STRASSE')) throw new Error(`sources: no STRASSE.csv in ${opts.sources.join(', ')}`);
  if (!tables.found.has('GEMEINDE') && !opts.catalogue) throw new Error(`sources: no GEMEINDE.csv in ${opts.sources.join(', ')} and no catalogue`);
  const cat = new Map((opts.catalogue ? [...opts.catalogue.regions, ...opts.catalogue.counties, ...opts.catalogue.municipalities] : []).map((d) => [d.place_id, d]));
  for (const e of opts.catalogue?.errors ?? []) run.error(`catalogue: ${e}`);

  const seen = new Occurrences();
  let adresse = false;
  for await (const { f } of tableRows(opts.sources, 'ADRESSE', () => undefined)) {
    adresse = true;
    seen.add(f('ADRCD'));
  }
  if (!adresse) throw new Error(`sources: no ADRESSE.csv in ${opts.sources.join(', ')}`);

  const builder = new AtAddressBuilder(
    {
      street: (skz) => tables.streets.get(skz),
      municipalityName: (gkz) => tables.municipalities.get(gkz),
      locality: (okz) => tables.localities.get(okz),
      catalogue: (id) => cat.get(id),
    },
    (m) => run.error(m),
  );
  const agg = new AddressAggregates('AT', (id) => cat.get(id));
  for await (const { f, row } of tableRows(opts.sources, 'ADRESSE', skip)) {
    const r = addressRow(f);
    if (!seen.takeLast(r.adrcd)) continue;
    const where = `${row.source} line ${row.line}`;
    const doc = builder.build(r, where);
    if (typeof doc === 'string') {
      skip(where, doc);
      continue;
    }
    for (const d of [doc, ...distinctSubs(tables.subs.get(r.adrcd)).map((s) => builder.sub(doc, r.adrcd, s, where))]) {
      run.report.addresses++;
      agg.add(d);
      const full = run.push(d);
      if (full) yield full;
    }
  }
  yield* derived(run, agg, opts.onReport);
}
