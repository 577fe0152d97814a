import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { ChAddressBuilder } from './ch-address.builder';
import { SwisstopoPass } from './swisstopo-rows';

export { CH_ENTRY } from './swisstopo-rows';

/**
 * Every PlaceDoc of the Swiss official building-address register: the CSV as a file, a zip or a
 * folder, streamed; then streets, postal codes, municipalities, districts and cantons derived.
 * Only `real` addresses are imported: `planned` and `outdated` rows are counted in `skipped`
 * with one summary line per status, and so are the rows of Liechtenstein (BFS 7001-7011),
 * which the same file holds and `liPlaceDocs` imports. An EGAID seen again (a later file, a
 * corrected row) replaces the earlier version in the store (same place_id); the derived
 * weights count both.
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
  const pass = new SwisstopoPass('CH', run, agg, (row, where) => builder.build(row, where));
  for (const path of opts.sources) yield* pass.read(path);
  pass.summarize();
  yield* derived(run, agg, opts.onReport);
}

/** Region, county and municipality docs of the catalogue by place_id. */
export function catalogueLookup(c: Catalogue | undefined): (id: string) => PlaceDoc | undefined {
  if (!c) return () => undefined;
  const byId = new Map([...c.regions, ...c.counties, ...c.municipalities].map((d) => [d.place_id, d]));
  return (id) => byId.get(id);
}
