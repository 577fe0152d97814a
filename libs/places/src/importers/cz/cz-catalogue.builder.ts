import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { byPlaceId, Catalogue, emptyCatalogue } from '../catalogue.types';
import type { CzCatalogueRow } from './cz-catalogue-csv.reader';

/**
 * Folds PSC-list rows into the Czech catalogue: kraj -> region, okres -> county, obec ->
 * municipality, keyed by the RUIAN codes (stable across releases). A code seen again with a
 * different name or parent keeps its first reading and records an error.
 */
export class CzCatalogueBuilder {
  private readonly regions = new Map<string, PlaceDoc>();
  private readonly counties = new Map<string, PlaceDoc>();
  private readonly municipalities = new Map<string, PlaceDoc>();
  private readonly cat: Catalogue = emptyCatalogue('CZ');

  add(row: CzCatalogueRow): void {
    const region = this.once(this.regions, 'region', row.regionCode, row.regionName, row, () => undefined);
    const county = this.once(this.counties, 'county', row.countyCode, row.countyName, row, (doc) => {
      doc.region_id = region.place_id;
      doc.region = region.name;
    });
    const municipality = this.once(this.municipalities, 'municipality', row.municipalityCode, row.municipalityName, row, (doc) => {
      doc.county_id = county.place_id;
      doc.county = county.name;
      doc.region_id = region.place_id;
      doc.region = region.name;
    });
    addTo(this.cat.postalCodes, municipality.place_id, row.postalCode);
    addTo(this.cat.parts, municipality.place_id, row.partName);
  }

  build(): Catalogue {
    this.cat.regions = [...this.regions.values()].sort(byPlaceId);
    this.cat.counties = [...this.counties.values()].sort(byPlaceId);
    this.cat.municipalities = [...this.municipalities.values()].sort(byPlaceId);
    return this.cat;
  }

  private once(
    docs: Map<string, PlaceDoc>,
    kind: 'region' | 'county' | 'municipality',
    code: string,
    name: string,
    row: CzCatalogueRow,
    fill: (doc: PlaceDoc) => void,
  ): PlaceDoc {
    const seen = docs.get(code);
    if (!seen) {
      const doc = emptyDoc('CZ', kind, placeId('CZ', kind, code), name);
      fill(doc);
      docs.set(code, doc);
      return doc;
    }
    const probe = { ...seen, name };
    fill(probe);
    if (probe.name !== seen.name || probe.county_id !== seen.county_id || probe.region_id !== seen.region_id) {
      this.cat.errors.push(
        `line ${row.line}: ${kind} ${code} reads "${name}" in ${probe.county_id ?? probe.region_id ?? '-'}, ` +
          `earlier "${seen.name}" in ${seen.county_id ?? seen.region_id ?? '-'}; kept the earlier`,
      );
    }
    return seen;
  }
}

function addTo(m: Map<string, Set<string>>, key: string, value: string): void {
  const set = m.get(key);
  if (set) set.add(value);
  else m.set(key, new Set([value]));
}

export async function buildCzCatalogue(rows: AsyncIterable<CzCatalogueRow>): Promise<Catalogue> {
  const builder = new CzCatalogueBuilder();
  for await (const row of rows) builder.add(row);
  return builder.build();
}
