import { basename } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { AddressImportReport, derived, ImportRun } from '../address-import';
import { Catalogue } from '../catalogue.types';
import { catalogueLookup } from '../ch/ch-import';
import { LiOsmAddressBuilder } from './li-osm-address.builder';
import { scanOsmAddresses } from './osm-address-scan';

/**
 * Every PlaceDoc of Liechtenstein from OpenStreetMap extracts (`.osm.pbf`): addresses from the
 * nodes, ways (centroid) and relations carrying `addr:housenumber`, then the derived streets,
 * postal codes, municipalities (official BFS numbers) and the Oberland/Unterland regions.
 * Every element with `addr:*` tags that does not become an address is counted in `skipped` with
 * its reason. A later source replaces an earlier one's element with the same OSM id.
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
  for (const path of opts.sources) {
    if (!/\.pbf$/i.test(path)) throw new Error(`sources: ${path} is not an OSM PBF extract (.osm.pbf)`);
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
  yield* derived(run, agg, opts.onReport);
}
