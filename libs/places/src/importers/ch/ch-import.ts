import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { sourcesAt } from '../io/source';
import { ChAddressBuilder } from './ch-address.builder';
import { readChAddressCsv } from './ch-address-csv.reader';
import { SeenIds } from './seen-ids';

/** Members of a zip or folder that are address CSVs. */
export const CH_ENTRY = /\.csv$/i;

/**
 * Every PlaceDoc of the Swiss official building-address register: the CSV as a file, a zip or a
 * folder, streamed; then streets, postal codes, municipalities, districts and cantons derived.
 * Only `real` addresses are imported: `planned` and `outdated` rows are counted in `skipped`
 * with one summary line per status. An EGAID seen again (a later file, a corrected row) replaces
 * the earlier version in the store (same place_id); the derived weights count both.
 */
export async function* chPlaceDocs(opts: {
  sources: string[];
  catalogue?: Catalogue;
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
}): AsyncGenerator<PlaceDoc[]> {
  const run = new ImportRun('CH', opts.batchSize ?? 1000);
  const lookup = catalogueLookup(opts.catalogue);
  const agg = new AddressAggregates('CH', lookup);
  const builder = new ChAddressBuilder(lookup, (m) => run.error(m));
  const notReal = new Map<string, number>();
  const seen = new SeenIds();
  for (const path of opts.sources) {
    for await (const source of sourcesAt(path, CH_ENTRY)) {
      const rows = readChAddressCsv(source, (e) => {
        run.report.skipped++;
        run.error(`${source.name} line ${e.line}: ${e.message}`);
      });
      for await (const row of rows) {
        if (row.status !== 'real') {
          run.report.skipped++;
          notReal.set(row.status, (notReal.get(row.status) ?? 0) + 1);
          continue;
        }
        const where = `${source.name} line ${row.line}`;
        if (seen.add(Number(row.egaid))) run.report.addresses++;
        else run.error(`${where}: EGAID ${row.egaid} appears again: this later row replaces the earlier one`);
        const doc = builder.build(row, where);
        agg.add(doc);
        const full = run.push(doc);
        if (full) yield full;
      }
    }
  }
  for (const [status, n] of notReal) run.error(`${n} rows with ADR_STATUS "${status}" are not existing addresses: not imported`);
  yield* derived(run, agg, opts.onReport);
}

/** Region, county and municipality docs of the catalogue by place_id. */
export function catalogueLookup(c: Catalogue | undefined): (id: string) => PlaceDoc | undefined {
  if (!c) return () => undefined;
  const byId = new Map([...c.regions, ...c.counties, ...c.municipalities].map((d) => [d.place_id, d]));
  return (id) => byId.get(id);
}
