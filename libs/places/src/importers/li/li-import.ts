import { basename } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { catalogueLookup } from '../ch/ch-import';
import { SwisstopoPass } from '../ch/swisstopo-rows';
import { LiOsmAddressBuilder } from './li-osm-address.builder';
import { LiSwisstopoAddressBuilder } from './li-swisstopo-address.builder';
import { scanOsmAddresses } from './osm-address-scan';

/**
 * Every PlaceDoc of Liechtenstein, from either source: the official addresses in swisstopo's
 * building-address file (the CSV, its zip or a folder; its rows of BFS 7001-7011, the Swiss
 * ones left out), or OpenStreetMap extracts (`.osm.pbf`): addresses from the nodes, ways
 * (centroid) and relations carrying `addr:housenumber`. Then the derived streets, postal codes,
 * municipalities (official BFS numbers) and the Oberland/Unterland regions. The official file
 * is the better source: every building's address, ids that last. Every OSM element with `addr:*`
 * tags that does not become an address is counted in `skipped` with its reason. A later source
 * replaces an earlier one's element with the same id.
 */
export async function* liPlaceDocs(opts: {
  sources: string[];
  catalogue?: Catalogue;
  batchSize?: number;
  onReport?: (r: AddressImportReport) => void;
}): AsyncGenerator<PlaceDoc[]> {
  const run = new ImportRun('LI', opts.batchSize ?? 1000);
  const lookup = catalogueLookup(opts.catalogue);
  const agg = new AddressAggregates('LI', lookup);
  const official = new LiSwisstopoAddressBuilder(lookup, (m) => run.error(m));
  const swisstopo = new SwisstopoPass('LI', run, agg, (row, where) => official.build(row, where));
  for (const path of opts.sources) {
    if (!/\.pbf$/i.test(path)) {
      yield* swisstopo.read(path);
      continue;
    }
    const { candidates, areas } = await scanOsmAddresses(path);
    const builder = new LiOsmAddressBuilder(lookup, areas);
    for (const c of candidates) {
      const doc = builder.build(c);
      if (typeof doc === 'string') {
        run.report.skipped++;
        run.error(`${basename(path)} ${c.key}: ${doc}`);
        continue;
      }
      run.report.addresses++;
      agg.add(doc);
      const full = run.push(doc);
      if (full) yield full;
    }
  }
  swisstopo.summarize();
  yield* derived(run, agg, opts.onReport);
}
