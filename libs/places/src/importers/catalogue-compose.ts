import { CountryCode, PlaceObject } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { CATALOGUE_OBJECTS } from '../store/places.store';
import { AddressAggregates } from './address-aggregates';

const AREA = new Set<PlaceObject>(CATALOGUE_OBJECTS);
/** Documents that name their municipality's county and region and follow the catalogue. */
const LINKED = new Set<PlaceObject>(['address', 'street', 'postal_code']);

/**
 * A catalogue import composed with the country's live address layer (see libs/indexer/README.md,
 * "What a version holds"): every carried address, street and postal code is re-linked to the new
 * catalogue's county and region (through its municipality), and the addresses are counted again,
 * so each municipality, county and region keeps the weight and centroid of its addresses — the
 * same values an address import would give it. Catalogue objects without addresses keep the
 * catalogue's own position (Praha in an extract without it).
 */
export class CatalogueComposer {
  private readonly byId: Map<string, PlaceDoc>;
  private readonly agg: AddressAggregates;
  private addresses = 0;

  constructor(
    country: CountryCode,
    /** The new catalogue's region, county and municipality documents. */
    catalogue: PlaceDoc[],
  ) {
    this.byId = new Map(catalogue.map((d) => [d.place_id, d]));
    this.agg = new AddressAggregates(country, (id) => this.byId.get(id));
  }

  /** The carried addresses seen so far. */
  get carriedAddresses(): number {
    return this.addresses;
  }

  /** For `VersionScope.carry`: re-links one carried document (in place) and counts it. */
  readonly carry = (d: PlaceDoc): PlaceDoc => {
    if (!LINKED.has(d.object)) return d;
    const m = d.municipality_id ? this.byId.get(d.municipality_id) : undefined;
    if (m) [d.county_id, d.county, d.region_id, d.region] = [m.county_id, m.county, m.region_id, m.region];
    if (d.object === 'address') {
      this.addresses++;
      this.agg.add(d);
    }
    return d;
  };

  /** The catalogue's documents, with the carried addresses' weights and centroids; call after the carry. */
  docs(): PlaceDoc[] {
    const out = new Map(this.byId);
    if (this.addresses > 0) for (const d of this.agg.docs()) if (AREA.has(d.object)) out.set(d.place_id, d);
    return [...out.values()];
  }
}
